"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useMemo } from "react";
import { useDarkTheme } from "@/lib/client/theme";
import { scalarConfiguration } from "./scalar-configuration";

/**
 * Scalar's reference of the dashboard's API, drawn in the browser only (api-reference.tsx loads
 * it so). Scalar reads the forced theme once, when it mounts: a theme change mounts it again.
 * Its numbers are the API's raw values (limits, examples, RFC numbers), not amounts for the
 * formatter: data-raw-value says so.
 */
export default function ScalarReference() {
  const dark = useDarkTheme();
  const configuration = useMemo(() => scalarConfiguration({ origin: window.location.origin, dark }), [dark]);
  return (
    <div data-testid="api-reference" data-raw-value>
      <ApiReferenceReact key={dark ? "dark" : "light"} configuration={configuration} />
    </div>
  );
}
