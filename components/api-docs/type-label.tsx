import { Fragment, type ReactNode } from "react";
import type { Constraint, TypeDesc } from "./json-schema";
import { schemaAnchor } from "./openapi";
import { CODE } from "./prose";

/** A named schema: a link to its section under Schemas (links take the reference's DOC_STYLES). */
export function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#${schemaAnchor(name)}`} className="font-mono">
      {name}
    </a>
  );
}

const joined = (items: ReactNode[], by: string) =>
  items.map((item, i) => (
    <Fragment key={i}>
      {i > 0 && by}
      {item}
    </Fragment>
  ));

/** A type in words: `Order`, `Approval[]`, "one of `BUY | SELL`", "map: string → string". */
export function TypeLabel({ type }: { type: TypeDesc }): ReactNode {
  switch (type.kind) {
    case "plain":
      return type.name;
    case "ref":
      return <SchemaLink name={type.name} />;
    case "array":
      return (
        <>
          {type.items.kind === "enum" || type.items.kind === "oneOf" ? (
            <>
              array, each <TypeLabel type={type.items} />
            </>
          ) : (
            <>
              <TypeLabel type={type.items} />
              []
            </>
          )}
        </>
      );
    case "enum":
      return (
        <>
          one of <code className={CODE}>{type.values.join(" | ")}</code>
        </>
      );
    case "const":
      return (
        <>
          exactly <code className={CODE}>{type.value}</code>
        </>
      );
    case "oneOf":
      return (
        <>
          one of:{" "}
          {joined(
            type.options.map((o, i) => <TypeLabel key={i} type={o} />),
            ", ",
          )}
        </>
      );
    case "map":
      return (
        <>
          map: <TypeLabel type={type.key} /> → <TypeLabel type={type.value} />
        </>
      );
  }
}

/** A value's rules, one to a line; the values are raw (limits, patterns), written as code. */
export function Constraints({ constraints }: { constraints: Constraint[] }) {
  if (constraints.length === 0) return "—";
  return (
    <ul>
      {constraints.map((c) => (
        <li key={c.label}>
          {c.label} <code className={CODE}>{c.value}</code>
        </li>
      ))}
    </ul>
  );
}
