// The indicators the chart offers, as the user reads them (issue 8 #8): their names in the user's
// language, their values spelled by lib/number.ts with a precision that suits each one (the
// price's for averages and bands, two decimals for RSI, a magnitude-aware one for MACD, compact
// volumes), in one line per pane. Averages and bands drawn over the candles are listed in the
// strip above the chart (ChartLegend.tsx); an indicator with a pane of its own gets its line at
// the top of its pane, where the pane keeps room free for it (see `indicatorLegendRoomPx`).
import type { Chart, Indicator, IndicatorCreate, IndicatorTooltipData, KLineData } from 'klinecharts';
import { formatCompact, formatDecimal } from '../../lib/number.ts';
import { indicatorDecimalsMax, magnitudeDecimals } from './chartFormat.ts';
import { chartPalette } from './chartSetup.ts';
import { candlePaneId, indicatorPaneId, overlayIndicators, type IndicatorName } from './chartData.ts';

/** What the legends say, in the user's language. */
export interface ChartTexts {
  /** BCP 47 tag for numbers. */
  intl: string;
  /** Short names ("MA", "Vol", "거래량"). */
  names: Record<IndicatorName, string>;
  /** MACD's lines and Bollinger's bands. */
  lines: { dif: string; dea: string; up: string; mid: string; dn: string };
}

export interface LegendValue { key: string; label: string; value: string; color: string }

const missing = '–';

type Row = Record<string, number | undefined>;

/** A label per figure of the indicator (its calculation parameters are in the labels: "MA5", "RSI6"). */
function labelOf(name: IndicatorName, key: string, index: number, params: unknown[], texts: ChartTexts): string {
  const { names, lines } = texts;
  switch (name) {
    case 'MA': case 'EMA': case 'RSI':
      return `${names[name]}${String(params[index] ?? '')}`;
    case 'BOLL':
      return lines[key as 'up' | 'mid' | 'dn'] ?? key;
    case 'VOL':
      return key === 'volume' ? names.VOL : `${names.MA}${String(params[index] ?? '')}`;
    case 'MACD':
      return key === 'macd' ? names.MACD : lines[key as 'dif' | 'dea'] ?? key;
  }
}

/** The values of one indicator at one candle, labelled and spelled, in drawing order. */
export function indicatorLegend(indicator: Pick<Indicator, 'name' | 'figures' | 'calcParams' | 'precision' | 'result'>,
  dataIndex: number, texts: ChartTexts): LegendValue[] {
  const name = indicator.name as IndicatorName;
  const row = (indicator.result[dataIndex] ?? {}) as Row;
  let lineIndex = 0;
  const { indicatorLines, text: neutralColor } = chartPalette();
  const values = indicator.figures.filter((figure) => typeof figure.title === 'string').map((figure, index) => {
    const color = figure.type === 'line' ? indicatorLines[lineIndex++ % indicatorLines.length] : neutralColor;
    const raw = row[figure.key];
    const value = typeof raw !== 'number' || !Number.isFinite(raw) ? missing
      : name === 'VOL' ? formatCompact(String(raw), texts.intl)
        : formatDecimal(raw, indicator.precision, texts.intl);
    return { key: figure.key, label: labelOf(name, figure.key, index, indicator.calcParams, texts), value, color };
  });
  // The histogram is what "MACD" names: it goes first, so the pane's line starts with the name.
  if (name === 'MACD') values.sort((a, b) => Number(b.key === 'macd') - Number(a.key === 'macd'));
  // The volume itself first, then its averages.
  if (name === 'VOL') values.sort((a, b) => Number(b.key === 'volume') - Number(a.key === 'volume'));
  return values;
}

const nothing: IndicatorTooltipData = { name: '', calcParamsText: '', features: [], legends: [] };

/**
 * How an indicator is created: over the candles with no legend of its own (the strip shows it),
 * or in its own pane with a one-line legend. `texts` is read at every drawing, so a change of
 * language needs only a redraw.
 */
export function indicatorCreate(name: IndicatorName, texts: () => ChartTexts): IndicatorCreate {
  const paneId = indicatorPaneId(name);
  if (overlayIndicators.includes(name)) {
    return {
      name,
      paneId,
      // Three averages, as the EMA and the bands have three lines: one row of the strip at 390 px.
      ...(name === 'MA' ? { calcParams: [5, 10, 30] } : {}),
      createTooltipDataSource: () => nothing,
    };
  }
  return {
    name,
    paneId,
    // Two volume averages rather than three keep the pane's line short enough for 320 px.
    ...(name === 'VOL' ? { calcParams: [5, 10] } : {}),
    ...(name === 'RSI' ? { precision: 2 } : {}),
    createTooltipDataSource: ({ indicator, crosshair }) => ({
      ...nothing,
      legends: indicatorLegend(indicator, crosshair.dataIndex ?? indicator.result.length - 1, texts()).map(({ label, value, color }) => ({
        title: { text: `${label} `, color },
        value: { text: value, color },
      })),
    }),
  };
}

type MacdRow = { dif?: number; dea?: number; macd?: number };

/**
 * MACD's decimals (issue 19 polish): never fewer than the symbol's price precision, and enough for
 * three significant digits of a typical value (the median of the non-zero ones), since a signal
 * line near zero read "DEA 0.00000" for DOGE when the largest value alone set the precision.
 */
export function macdDecimals(values: Iterable<number | undefined>, pricePrecision: number): number {
  const sizes: number[] = [];
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value) && value !== 0) sizes.push(Math.abs(value));
  }
  const floor = Math.max(0, Math.min(indicatorDecimalsMax, pricePrecision));
  if (sizes.length === 0) return Math.max(floor, magnitudeDecimals([]));
  sizes.sort((left, right) => left - right);
  const typical = sizes[Math.floor(sizes.length / 2)];
  return Math.max(floor, magnitudeDecimals([typical]));
}

/**
 * MACD's precision follows its values: the built-in calculation is wrapped, and after each run the
 * precision is set from the largest value (axis labels and legend both follow it).
 */
export function followMacdMagnitude(chart: Chart) {
  const paneId = indicatorPaneId('MACD');
  const [macd] = chart.getIndicators({ name: 'MACD', paneId });
  if (!macd) return;
  const builtIn = macd.calc;
  chart.overrideIndicator({
    name: 'MACD',
    paneId,
    calc: async (dataList: KLineData[], indicator: Indicator) => {
      const result = await builtIn(dataList, indicator) as MacdRow[];
      const decimals = macdDecimals(result.flatMap((row) => [row.dif, row.dea, row.macd]), chart.getSymbol()?.pricePrecision ?? 0);
      if (decimals !== indicator.precision) {
        // Not from inside the calculation: the override calculates again (and stops there, the
        // precision then being right). It does not build the axis labels again; an axis override does.
        queueMicrotask(() => {
          chart.overrideIndicator({ name: 'MACD', paneId, precision: decimals });
          chart.overrideYAxis({ paneId });
        });
      }
      return result;
    },
  });
}

/** The averages and bands drawn over the candles, at one candle. */
export function overlayLegends(chart: Chart, dataIndex: number, texts: ChartTexts): LegendValue[] {
  return chart.getIndicators({ paneId: candlePaneId })
    .filter((indicator) => overlayIndicators.includes(indicator.name as IndicatorName))
    .flatMap((indicator) => indicatorLegend(indicator, dataIndex, texts).map((value) => ({ ...value, key: `${indicator.name}.${value.key}` })));
}
