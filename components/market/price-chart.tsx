"use client";

/*
 * TradingView Lightweight Charts™
 * Copyright (c) 2025 TradingView, Inc. https://www.tradingview.com/
 * (the library's attribution notice; the link it asks for is under the chart, since its
 * logo, a link inside the chart's picture, would be a control nested in an image)
 */
import { createChart, LineSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from "lightweight-charts";
import { useEffect, useRef } from "react";
import { latestTrade, pricePoints } from "@/lib/shared/executions";
import { formatMarket, formatPrice, zoneName } from "@/lib/shared/format";
import { useRecentExecutions } from "@/lib/client/queries";
import { useDarkTheme } from "@/lib/client/theme";
import { useTimeZone } from "@/lib/client/time-zone";
import type { Market } from "@/lib/spec/enums";
import { themeColor } from "./theme-color";
import { ChartCredit, zonedChartOptions } from "./chart-parts";

/** The market's recent trades as a line, redrawn as trades arrive. */
export function PriceChart({ market }: { market: Market }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; series: ISeriesApi<"Line"> } | null>(null);
  const executions = useRecentExecutions(market);
  const dark = useDarkTheme();
  const { zone } = useTimeZone();
  const points = pricePoints(executions.data ?? []);
  // The service lists recent executions in no order it promises: the latest is found, not assumed first.
  const last = latestTrade(executions.data ?? []);

  useEffect(() => {
    const api = createChart(container.current!, {
      autoSize: true,
      layout: { attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: true },
      rightPriceScale: { borderVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    chart.current = { api, series: api.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: true }) };
    return () => {
      api.remove();
      chart.current = null;
    };
  }, []);

  // Colours from the theme, again whenever the theme changes (a canvas cannot follow CSS).
  useEffect(() => {
    const text = themeColor("ink-muted");
    chart.current?.api.applyOptions({
      layout: { background: { color: "transparent" }, textColor: text },
      grid: { vertLines: { visible: false }, horzLines: { color: themeColor("ink-faint", 0.25) } },
    });
    chart.current?.series.applyOptions({ color: themeColor("brand") });
    container.current!.dataset.textColour = text; // what the tests can read of the canvas's colours
  }, [dark]);

  useEffect(() => {
    chart.current?.api.applyOptions(zonedChartOptions(zone));
  }, [zone]);

  const key = points.map((p) => `${p.time}:${p.price}`).join(",");
  useEffect(() => {
    // Numbers for drawing only: the chart library plots floats; no amount is computed from them.
    if (!chart.current) return;
    chart.current.series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: Number(p.price) })));
    chart.current.api.timeScale().fitContent();
    // What was last handed to the chart, for the tests: a canvas cannot be read back as data.
    container.current!.dataset.drawn = points.length ? `${points.length}@${points.at(-1)!.time}` : "";
    // `key` stands for `points`, which is a new array on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const label = last
    ? `Price chart of the last ${executions.data!.length} ${formatMarket(market)} trades; the last at ${formatPrice(last.price)}`
    : `Price chart of ${formatMarket(market)} trades: none yet`;
  return (
    <figure className="flex min-h-0 min-w-0 flex-col gap-1">
      <div className="relative h-64 min-w-0 lg:h-auto lg:min-h-40 lg:flex-1">
        <div
          ref={container}
          role="img"
          aria-label={label}
          data-testid="price-chart"
          data-trades={executions.data?.length ?? 0}
          data-last-match={last?.match_number ?? ""}
          className="absolute inset-0"
        />
        {executions.data && points.length === 0 && (
          <p className="absolute inset-0 grid place-items-center text-sm text-ink-muted">No trades yet.</p>
        )}
      </div>
      <figcaption className="flex justify-between gap-2 text-xs text-ink-muted">
        {/* The axis's times are in the zone chosen in the header, named as the tables name it. */}
        <span data-testid="chart-zone">Times in {zoneName(zone)}</span>
        <ChartCredit />
      </figcaption>
    </figure>
  );
}
