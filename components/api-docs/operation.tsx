import { curlOf } from "./curl";
import { Cell, DocRow, DocTable, NameCell } from "./doc-table";
import { constraintsOf, typeOf } from "./json-schema";
import { MethodBadge } from "./method-badge";
import {
  callerOf,
  schemaName,
  type Caller,
  type Endpoint,
  type JsonSchema,
  type OpenApiDocument,
  type ResponseObject,
} from "./openapi";
import { CODE, Prose } from "./prose";
import { Responses } from "./responses";
import { SchemaTable } from "./schema-table";
import { Constraints, SchemaLink, TypeLabel } from "./type-label";

const SCOPE_WORDS: Record<Exclude<Caller["kind"], "token">, string> = {
  public: "None needed: no caller at all.",
  metrics: "None: the deployment's METRICS_TOKEN, or an admin's session.",
  session: "None: a token is refused.",
};

/** A part of an operation; the section's spacing sets it off from the part above. */
const H4 = "pt-1 text-sm font-semibold";

/** One operation: what it does, who may call it, what it takes and answers, and a curl call. */
export function Operation({
  endpoint,
  document,
  origin,
  common,
}: {
  endpoint: Endpoint;
  document: OpenApiDocument;
  origin: string;
  /** The answers many operations give alike (commonResponses), shown once on the page. */
  common: Map<string, ResponseObject>;
}) {
  const { method, path, operation, id } = endpoint;
  const caller = callerOf(operation);
  const curl = curlOf(origin, method, path, operation, caller);
  const title = operation.summary ?? `${method.toUpperCase()} ${path}`;
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      data-operation={`${method} ${path}`}
      className="scroll-mt-4 space-y-3 rounded-lg border border-slate-200 bg-surface p-4 shadow-sm target:ring-2 target:ring-brand"
    >
      <div className="space-y-1.5">
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h3>
        <p className="flex flex-wrap items-center gap-2">
          <MethodBadge method={method} />
          <code className="font-mono text-sm">{path}</code>
        </p>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
        <dt className="text-ink-muted">Who may call</dt>
        <dd>{operation.description ? <Prose text={operation.description} /> : "—"}</dd>
        <dt className="text-ink-muted">Token scope</dt>
        <dd>{caller.kind === "token" ? <code className={CODE}>{caller.scope}</code> : SCOPE_WORDS[caller.kind]}</dd>
      </dl>
      {operation.parameters?.length ? (
        <>
          <h4 className={H4}>Parameters</h4>
          <Parameters endpoint={endpoint} title={title} />
        </>
      ) : null}
      {operation.requestBody && (
        <>
          <h4 className={H4}>Request body</h4>
          <RequestBody body={operation.requestBody} document={document} title={title} />
        </>
      )}
      <h4 className={H4}>Responses</h4>
      <Responses endpoint={endpoint} title={title} common={common} />
      <h4 className={H4}>Sample</h4>
      {curl ? (
        <pre className="rounded-md bg-surface-sunken p-3 font-mono text-xs whitespace-pre-wrap">
          <code>{curl}</code>
        </pre>
      ) : (
        <p className="text-sm text-ink-muted">Signed-in browser session only: a personal API token is refused.</p>
      )}
    </section>
  );
}

function Parameters({ endpoint, title }: { endpoint: Endpoint; title: string }) {
  return (
    <DocTable
      caption={`Parameters of ${title}`}
      columns={[["Name", "w-1/5"], ["In", "w-20"], ["Required", "w-20"], ["Type", "w-1/4"], ["Description"]]}
    >
      {endpoint.operation.parameters!.map((p) => (
        <DocRow key={`${p.in} ${p.name}`}>
          <NameCell>{p.name}</NameCell>
          <Cell label="In">{p.in}</Cell>
          <Cell label="Required">{p.required ? "yes" : "no"}</Cell>
          <Cell label="Type">{p.schema ? <SchemaSummary schema={p.schema} /> : "—"}</Cell>
          <Cell label="Description">{p.description ? <Prose text={p.description} /> : "—"}</Cell>
        </DocRow>
      ))}
    </DocTable>
  );
}

/** A value's type and, under it, its rules. */
function SchemaSummary({ schema }: { schema: JsonSchema }) {
  const constraints = constraintsOf(schema);
  return (
    <>
      <TypeLabel type={typeOf(schema)} />
      {constraints.length > 0 && <Constraints constraints={constraints} />}
    </>
  );
}

function RequestBody({
  body,
  document,
  title,
}: {
  body: NonNullable<Endpoint["operation"]["requestBody"]>;
  document: OpenApiDocument;
  title: string;
}) {
  const json = body.content?.["application/json"]?.schema;
  const csv = body.content?.["text/csv"]?.schema;
  const name = schemaName(json?.$ref);
  const resolved = name ? document.components?.schemas?.[name] : json;
  return (
    <div className="space-y-2 text-sm">
      {json && (
        <p>
          <code className={CODE}>application/json</code>
          {body.required ? ", required" : ""}
          {name && (
            <>
              : <SchemaLink name={name} />
            </>
          )}
        </p>
      )}
      {csv && (
        <p>
          Or, as a file, <code className={CODE}>text/csv</code>
          {csv.description ? (
            <>
              : <Prose text={csv.description} />
            </>
          ) : (
            "."
          )}
        </p>
      )}
      {resolved && <SchemaTable schema={resolved} caption={`Request body of ${title}: fields`} />}
    </div>
  );
}
