/** A chart on a page: an element the page script draws into from the JSON beside it. */
import { html, jsonData, type SafeHtml } from './html.js';

/** A uPlot chart's data: x in epoch seconds, one y array per series. */
export interface ChartData {
  x: number[];
  ys: number[][];
  series: Array<{ label: string; color: string; fill?: string }>;
  yLabel?: string;
  /** Shown instead of the chart when there is no point. */
  empty?: string;
}

export function chart(id: string, data: ChartData): SafeHtml {
  return html`<div class="chart" data-chart="${id}-data"></div>
    ${jsonData(`${id}-data`, data)}`;
}
