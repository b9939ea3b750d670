// The chart's look and its spelling of numbers and dates (issue 8 #8). Every text the chart draws
// uses the page's own font (klinecharts asks for 'Helvetica Neue', which most phones lack, so the
// canvas fell back to a serif), numbers go through lib/number.ts in the user's language, and
// klinecharts' "0.0{3}6" decimal folding is off. Its own candle legend is replaced by the strip
// above the chart (ChartLegend.tsx), so nothing is written over the candles. Its colours follow
// the theme and the colour convention: they are read from the page's CSS variables (styles.css),
// since a canvas cannot use them, again whenever either changes (KlineChart.tsx).
import {
  utils, type DecimalFold, type DeepPartial, type Formatter, type KLineData, type NeighborData, type Nullable, type Styles,
  type ThousandsSeparator,
} from 'klinecharts';
import { formatCompact } from '../../lib/number.ts';
import { formatChartDate, spellChartNumber } from './chartFormat.ts';

/** Indicator line colours, dark enough to read as 11 px text on white (at least 4.5:1). */
export const indicatorLineColors = ['#ad4e00', '#722ed1', '#0958d9', '#c41d7f', '#08979c'];
/** The same hues, light enough to read on the dark theme's surface. */
const darkIndicatorLineColors = ['#f0883e', '#b37feb', '#69b1ff', '#f759ab', '#36cfc9'];

export interface ChartPalette { up: string; down: string; flat: string; text: string; line: string; indicatorLines: string[] }

function readPalette(): ChartPalette {
  const root = typeof document === 'undefined' ? undefined : document.documentElement;
  const css = root ? getComputedStyle(root) : undefined;
  const read = (name: string, fallback: string) => css?.getPropertyValue(name).trim() || fallback;
  const dark = root?.dataset.prefersColorScheme === 'dark';
  return {
    up: read('--up', '#067a50'), down: read('--down', '#c42842'), flat: read('--flat', '#6b7280'),
    text: dark ? read('--muted', '#9aa1ac') : '#5c6370', line: read('--border', '#eceef2'),
    indicatorLines: dark ? darkIndicatorLineColors : indicatorLineColors,
  };
}

let palette: ChartPalette | undefined;
/** The chart's colours as last read from the page. */
export const chartPalette = () => (palette ??= readPalette());
/** Reads the chart's colours again (the theme or the colour convention changed). */
export function refreshChartPalette(): ChartPalette {
  palette = readPalette();
  return palette;
}

/** Size of the one-line legend at the top of an indicator pane and the room kept free for it. */
const legendTextSize = 11;
export const indicatorLegendRoomPx = 22;

export function chartStyles(fontFamily: string, candleLegend: (current: Nullable<KLineData>) => void,
  colors: ChartPalette = chartPalette()): DeepPartial<Styles> {
  const text = { family: fontFamily, color: colors.text };
  const change = { upColor: colors.up, downColor: colors.down, noChangeColor: colors.flat };
  const line = { color: colors.line };
  return {
    grid: { horizontal: line, vertical: line },
    separator: line,
    candle: {
      bar: {
        ...change, upBorderColor: colors.up, downBorderColor: colors.down, noChangeBorderColor: colors.flat,
        upWickColor: colors.up, downWickColor: colors.down, noChangeWickColor: colors.flat,
      },
      priceMark: {
        high: { textFamily: fontFamily, textSize: 10, color: colors.text },
        low: { textFamily: fontFamily, textSize: 10, color: colors.text },
        last: { ...change, text: { family: fontFamily, size: 11 } },
      },
      tooltip: {
        // The candle's values are shown by the strip above the chart. The legend template is still
        // called on every redraw with the candle under the crosshair (or the newest one): that call
        // is how the strip learns which candle to show, and it draws nothing.
        showRule: 'always',
        title: { show: false },
        legend: { ...text, size: legendTextSize, template: (data: NeighborData<Nullable<KLineData>>) => {
          candleLegend(data.current);
          return [];
        } },
      },
    },
    indicator: {
      ohlc: change,
      bars: [{ ...change }],
      lines: colors.indicatorLines.map((color) => ({ color, size: 1 })),
      tooltip: {
        offsetTop: 2,
        offsetLeft: 2,
        title: { ...text, size: legendTextSize, showParams: false, marginTop: 2, marginBottom: 2, marginLeft: 6, marginRight: 4 },
        legend: { ...text, size: legendTextSize, marginTop: 2, marginBottom: 2, marginLeft: 6, marginRight: 2 },
      },
      lastValueMark: { text: { family: fontFamily } },
    },
    xAxis: { axisLine: line, tickLine: line, tickText: { ...text, size: 10 } },
    yAxis: { axisLine: line, tickLine: line, tickText: { ...text, size: 10 } },
    crosshair: {
      horizontal: { text: { family: fontFamily, size: 10 } },
      vertical: { text: { family: fontFamily, size: 10 } },
    },
    overlay: { text: { family: fontFamily } },
  };
}

/** klinecharts folds "0.0006" into "0.0{3}6"; the chart shows plain digits instead. */
export const plainDecimals: Partial<DecimalFold> = { format: (value) => String(value) };

/** Number and date spelling in the user's language (`intl`, a BCP 47 tag). */
export function chartSpelling(intl: string): { formatter: Partial<Formatter>; thousandsSeparator: Partial<ThousandsSeparator> } {
  return {
    formatter: {
      formatDate: ({ dateTimeFormat, timestamp, template, type }) => formatChartDate(timestamp, template, type === 'xAxis', intl)
        ?? utils.formatDate(dateTimeFormat, timestamp, template),
      formatBigNumber: (value) => formatCompact(String(value), intl),
    },
    thousandsSeparator: { format: (value) => spellChartNumber(value, intl) },
  };
}

/** The body's font, which the canvas must name itself. */
export const pageFontFamily = () => getComputedStyle(document.body).fontFamily || 'sans-serif';

/** Text width as the chart measures it, for labels that must fit. */
export const measureAxisText = (text: string, fontFamily: string) => utils.calcTextWidth(text, 10, 'normal', fontFamily);
