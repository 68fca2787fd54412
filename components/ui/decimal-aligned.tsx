/**
 * A formatted amount aligned on its decimal point in a right-aligned column: the whole part
 * right-aligned, the fraction in a fixed room of the largest scale shown (a point and eight
 * digits, BASE_AMOUNT_SCALE), so "4,867.63848252" sits above "2.742" point over point, and "0"
 * above "0.00". From 640 px up: a phone has no room to spare, and shows the amount as it is.
 * Only layout: the text is the formatter's, whole.
 */
export function DecimalAligned({ text }: { text: string }) {
  const at = text.indexOf(".");
  const whole = at < 0 ? text : text.slice(0, at);
  const fraction = at < 0 ? "" : text.slice(at);
  return (
    <span className="whitespace-nowrap tabular-nums">
      {whole}
      <span className="text-left sm:inline-block sm:w-[9ch]">{fraction}</span>
    </span>
  );
}
