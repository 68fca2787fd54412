"use client";

/*
 * TradingView Lightweight Charts™
 * Copyright (c) 2025 TradingView, Inc. https://www.tradingview.com/
 * (the library's attribution notice; the link it asks for is under the chart, as on the orders page)
 */
import {
  createChart,
  createSeriesMarkers,
  LineSeries,
  LineStyle,
  type AutoscaleInfo,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef } from "react";
import { formatMarket, formatPrice } from "@/lib/shared/format";
import { parentChartData } from "@/lib/shared/parent-chart";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { useRecentExecutions } from "@/lib/client/queries";
import { useDarkTheme } from "@/lib/client/theme";
import { useTimeZone } from "@/lib/client/time-zone";
import { isMarket } from "@/lib/spec/markets";
import { zonedChartOptions } from "../market/chart-parts";
import { themeColor } from "../market/theme-color";

interface Drawn {
  api: IChartApi;
  series: ISeriesApi<"Line">;
  markers: ISeriesMarkersPluginApi<Time>;
  cap: IPriceLine | null;
  mid: IPriceLine | null;
}

/**
 * A TWAP parent's chart (drawn in ParentChart's frame, parent-chart.tsx): the market's price over
 * the parent's life as a line, each child's fill as a marker at its average price (numbered by its
 * slice), the cap as a dashed line and the mid it started at as a dotted one. The price scale
 * always takes in the cap. Drawn with the app's chart library, as the orders page's price chart is.
 */
export function ParentChartCanvas({ parent }: { parent: ParentOrder }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<Drawn | null>(null);
  const market = isMarket(parent.market) ? parent.market : "BTCUSD";
  const executions = useRecentExecutions(market);
  const dark = useDarkTheme();
  const { zone } = useTimeZone();
  const { points, markers } = parentChartData(parent, executions.data ?? []);
  // Numbers for drawing only: the chart library plots floats; no amount is computed from them.
  const cap = Number(parent.limit_price);
  const mid = parent.quality.arrival_mid ? Number(parent.quality.arrival_mid) : null;
  const buy = parent.side === "BUY";

  useEffect(() => {
    const api = createChart(container.current!, {
      autoSize: true,
      layout: { attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: true },
      rightPriceScale: { borderVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    const series = api.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
    chart.current = { api, series, markers: createSeriesMarkers(series, []), cap: null, mid: null };
    return () => {
      api.remove();
      chart.current = null;
    };
  }, []);

  // The cap and the arrival mid, in the theme's colours, again whenever the theme changes (a canvas cannot follow CSS).
  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    const text = themeColor("ink-muted");
    drawn.api.applyOptions({
      layout: { background: { color: "transparent" }, textColor: text },
      grid: { vertLines: { visible: false }, horzLines: { color: themeColor("ink-faint", 0.25) } },
    });
    drawn.series.applyOptions({
      color: themeColor("brand"),
      // The scale takes in the cap (and the mid), however far from the trades: the line a child never crosses is always in view.
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null): AutoscaleInfo => {
        const shown = original();
        const range = shown?.priceRange;
        const levels = [cap, ...(mid === null ? [] : [mid]), ...(range ? [range.minValue, range.maxValue] : [])];
        return { ...shown, priceRange: { minValue: Math.min(...levels), maxValue: Math.max(...levels) } };
      },
    });
    if (drawn.cap) drawn.series.removePriceLine(drawn.cap);
    if (drawn.mid) drawn.series.removePriceLine(drawn.mid);
    drawn.cap = drawn.series.createPriceLine({
      price: cap,
      color: themeColor(buy ? "sell" : "buy"),
      lineWidth: 2,
      lineStyle: LineStyle.Dashed,
      axisLabelVisible: true,
      title: "cap",
    });
    drawn.mid =
      mid === null
        ? null
        : drawn.series.createPriceLine({
            price: mid,
            color: text,
            lineWidth: 1,
            lineStyle: LineStyle.Dotted,
            axisLabelVisible: false,
            title: "arrival mid",
          });
    container.current!.dataset.cap = parent.limit_price; // what the tests can read of the canvas
    container.current!.dataset.textColour = text;
  }, [dark, cap, mid, buy, parent.limit_price]);

  useEffect(() => {
    chart.current?.api.applyOptions(zonedChartOptions(zone));
  }, [zone]);

  const key = `${points.map((p) => `${p.time}:${p.price}`).join(",")}|${markers.map((m) => `${m.n}@${m.time}`).join(",")}|${dark}`;
  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    drawn.series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: Number(p.price) })));
    const colour = themeColor(buy ? "buy" : "sell");
    drawn.markers.setMarkers(
      markers.map((m) => ({
        time: m.time as UTCTimestamp,
        position: "atPriceMiddle" as const,
        price: Number(m.price),
        shape: "circle" as const,
        color: colour,
        text: String(m.n),
        id: `child-${m.n}`,
      })),
    );
    drawn.api.timeScale().fitContent();
    // What was last handed to the chart, for the tests: a canvas cannot be read back as data.
    container.current!.dataset.drawn = String(points.length);
    container.current!.dataset.markers = markers.map((m) => m.n).join(",");
    // `key` stands for `points` and `markers`, which are new arrays on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const label =
    `Price of ${formatMarket(parent.market)} over the parent order's life: ${points.length} points, ` +
    `${markers.length === 1 ? "1 child fill" : `${markers.length} child fills`} marked, the cap at ${formatPrice(parent.limit_price)}`;
  return (
    <>
      <div ref={container} role="img" aria-label={label} data-testid="parent-chart" className="absolute inset-0" />
      {executions.data && points.length === 0 && (
        <p className="absolute inset-0 grid place-items-center text-sm text-ink-muted">
          No trade in the parent order&apos;s life yet.
        </p>
      )}
    </>
  );
}
