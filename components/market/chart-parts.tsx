import type { UTCTimestamp } from "lightweight-charts";
import { formatClock, formatPrice, formatTime, type TimeZoneChoice } from "@/lib/shared/format";

/**
 * What the app's price charts (the market's, a parent order's) share: times in the zone chosen in
 * the header, prices written as the ladder writes them, and the chart library's credit.
 */

/** The chart's options for `zone`: its axis and crosshair times and prices, in the app's formats. */
export const zonedChartOptions = (zone: TimeZoneChoice) => ({
  localization: {
    timeFormatter: (t: UTCTimestamp) => formatTime(t * 1000, zone),
    // The chart hands a float it drew with; its shortest decimal string is what is formatted.
    priceFormatter: (price: number) => formatPrice(String(price)),
  },
  timeScale: { tickMarkFormatter: (t: UTCTimestamp) => formatClock(t * 1000, zone) },
});

/** TradingView's credit, which its licence asks for beside every chart. */
export function ChartCredit() {
  return (
    <span>
      Chart by{" "}
      <a href="https://www.tradingview.com/" className="underline underline-offset-2" rel="noreferrer" target="_blank">
        TradingView
      </a>
    </span>
  );
}
