import { Fragment, type ReactNode } from "react";
import { Cell, DocRow, DocTable, NameCell } from "./doc-table";
import { typeOf } from "./json-schema";
import { isCommon, type Endpoint, type ResponseObject } from "./openapi";
import { CODE, Prose } from "./prose";
import { TypeLabel } from "./type-label";

/** An operation's own answers in full; those many calls give alike, by status, in one row. */
export function Responses({
  endpoint,
  title,
  common,
}: {
  endpoint: Endpoint;
  title: string;
  common: Map<string, ResponseObject>;
}) {
  const all = Object.entries(endpoint.operation.responses ?? {});
  const shared = all.filter(([status, response]) => isCommon(common, status, response));
  const bodies = [...new Map(shared.map(([, r]) => [JSON.stringify(r.content), r.content])).values()];
  return (
    <ResponsesTable caption={`Responses of ${title}`} responses={all.filter((r) => !shared.includes(r))}>
      {shared.length > 0 && (
        <DocRow>
          <NameCell>{shared.map(([status]) => status).join(", ")}</NameCell>
          <Cell label="Description">
            As many calls give them: see <a href={`#${COMMON_ANCHOR}`}>common responses</a>.
          </Cell>
          <Cell label="Body">
            {bodies.map((content, i) => (
              <Fragment key={i}>
                {i > 0 && ", "}
                <Bodies content={content} />
              </Fragment>
            ))}
          </Cell>
        </DocRow>
      )}
    </ResponsesTable>
  );
}

/** Where the common responses are described. */
export const COMMON_ANCHOR = "common-responses";

/** Answers by status: what each means and what it carries. */
export function ResponsesTable({
  caption,
  responses,
  children,
}: {
  caption: string;
  responses: [string, ResponseObject][];
  children?: ReactNode;
}) {
  return (
    <DocTable caption={caption} columns={[["Status", "w-24"], ["Description"], ["Body", "w-1/4"]]}>
      {responses.map(([status, response]) => (
        <DocRow key={status}>
          <NameCell>{status}</NameCell>
          <Cell label="Description">{response.description ? <Prose text={response.description} /> : "—"}</Cell>
          <Cell label="Body">
            <Bodies content={response.content} />
          </Cell>
        </DocRow>
      ))}
      {children}
    </DocTable>
  );
}

/**
 * What an answer carries: a JSON body's schema (a link when it is named, as a problem's), or the
 * media type of anything else (CSV, an event stream, text).
 */
function Bodies({ content }: { content: ResponseObject["content"] }) {
  const entries = Object.entries(content ?? {});
  if (entries.length === 0) return "—";
  return entries.map(([type, { schema }], i) => (
    <Fragment key={type}>
      {i > 0 && ", "}
      {schema && type.endsWith("json") ? <TypeLabel type={typeOf(schema)} /> : <code className={CODE}>{type}</code>}
    </Fragment>
  ));
}
