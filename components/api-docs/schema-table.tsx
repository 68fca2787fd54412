import { Cell, DocRow, DocTable, NameCell, type Column } from "./doc-table";
import { fieldsOf } from "./json-schema";
import type { JsonSchema } from "./openapi";
import { Prose } from "./prose";
import { Constraints, TypeLabel } from "./type-label";

/**
 * An object schema's fields as a table: field, type, required, constraints (and a description
 * where the document gives one), nested objects' fields indented under theirs.
 */
export function SchemaTable({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const rows = fieldsOf(schema);
  if (rows.length === 0) return <p className="text-sm text-ink-muted">Any JSON object: no fields are fixed.</p>;
  const described = rows.some((r) => r.description);
  return (
    <DocTable
      caption={caption}
      columns={[
        ["Field", "w-1/5"],
        ["Type"],
        ["Required", "w-20"],
        ["Constraints", "w-1/4"],
        ...(described ? [["Description", "w-1/4"] as Column] : []),
      ]}
    >
      {rows.map((row, i) => (
        <DocRow key={i} depth={row.depth}>
          {/* A nested field is read with the field it is in: limits.price_guard_percent. */}
          <NameCell label={row.parent && `${row.parent}.${row.name}`}>{row.name}</NameCell>
          <Cell label="Type">
            <TypeLabel type={row.type} />
            {row.folded && <span className="text-ink-muted"> (its fields are not listed here)</span>}
          </Cell>
          <Cell label="Required">{row.required ? "yes" : "no"}</Cell>
          <Cell label="Constraints">
            <Constraints constraints={row.constraints} />
          </Cell>
          {described && <Cell label="Description">{row.description && <Prose text={row.description} />}</Cell>}
        </DocRow>
      ))}
    </DocTable>
  );
}
