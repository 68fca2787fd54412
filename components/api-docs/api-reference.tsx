import { DOC_STYLES } from "./doc-table";
import { MethodBadge } from "./method-badge";
import { Operation } from "./operation";
import { commonResponses, endpointsByTag, schemaAnchor, type OpenApiDocument } from "./openapi";
import { Prose } from "./prose";
import { COMMON_ANCHOR, ResponsesTable } from "./responses";
import { SchemaTable } from "./schema-table";

/**
 * The OpenAPI document drawn for people, on the server as plain HTML (no script of its own): its
 * title and description, a table of contents by tag, each operation, then every named schema,
 * which the operations' types link to. `origin` is the dashboard's, for the curl samples.
 */
export function ApiReference({ document, origin }: { document: OpenApiDocument; origin: string }) {
  const byTag = [...endpointsByTag(document)];
  const schemas = Object.entries(document.components?.schemas ?? {});
  const common = commonResponses(document);
  return (
    <div className={`space-y-8 ${DOC_STYLES}`}>
      <section aria-labelledby="api-title" className="space-y-1">
        <h2 id="api-title" className="text-base font-semibold">
          {document.info.title}{" "}
          <span className="text-sm font-normal text-ink-muted">version {document.info.version}</span>
        </h2>
        {document.info.description && (
          <p className="max-w-3xl text-sm">
            <Prose text={document.info.description} />
          </p>
        )}
      </section>

      <nav aria-labelledby="api-contents" className="rounded-lg border border-slate-200 bg-surface p-4 shadow-sm">
        <h2 id="api-contents" className="text-base font-semibold">
          Contents
        </h2>
        <ul className="mt-2 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-3">
          {byTag.map(([tag, endpoints]) => (
            <li key={tag}>
              <a href={`#tag-${tag}`} className="font-medium">
                {label(tag)}
              </a>
              <ul className="mt-1 space-y-1">
                {endpoints.map((e) => (
                  <li key={e.id} className="flex items-baseline gap-2">
                    <MethodBadge method={e.method} />
                    <a href={`#${e.id}`}>{e.operation.summary ?? e.path}</a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href={`#${COMMON_ANCHOR}`} className="font-medium">
              Common responses
            </a>
          </li>
          <li>
            <a href="#schemas" className="font-medium">
              Schemas
            </a>
          </li>
        </ul>
      </nav>

      {byTag.map(([tag, endpoints]) => (
        <section key={tag} id={`tag-${tag}`} aria-labelledby={`tag-${tag}-title`} className="scroll-mt-4 space-y-3">
          <h2 id={`tag-${tag}-title`} className="text-base font-semibold">
            {label(tag)}
          </h2>
          {endpoints.map((e) => (
            <Operation key={e.id} endpoint={e} document={document} origin={origin} common={common} />
          ))}
        </section>
      ))}

      <section
        id={COMMON_ANCHOR}
        aria-labelledby={`${COMMON_ANCHOR}-title`}
        className="scroll-mt-4 space-y-2 rounded-lg border border-slate-200 bg-surface p-4 shadow-sm"
      >
        <h2 id={`${COMMON_ANCHOR}-title`} className="text-base font-semibold">
          Common responses
        </h2>
        <p className="text-sm">
          What many calls may answer alike. Each call lists its own responses in full and names these by status.
        </p>
        <ResponsesTable caption="Common responses" responses={[...common]} />
      </section>

      <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-4 space-y-3">
        <h2 id="schemas-title" className="text-base font-semibold">
          Schemas
        </h2>
        {schemas.map(([name, schema]) => (
          <section
            key={name}
            id={schemaAnchor(name)}
            aria-labelledby={`${schemaAnchor(name)}-title`}
            className="scroll-mt-4 space-y-2 rounded-lg border border-slate-200 bg-surface p-4 shadow-sm target:ring-2 target:ring-brand"
          >
            <h3 id={`${schemaAnchor(name)}-title`} className="font-mono text-base font-semibold">
              {name}
            </h3>
            <SchemaTable schema={schema} caption={`Fields of ${name}`} />
          </section>
        ))}
      </section>
    </div>
  );
}

/** A tag as a heading: `orders` → Orders. */
const label = (tag: string) => tag[0]!.toUpperCase() + tag.slice(1);
