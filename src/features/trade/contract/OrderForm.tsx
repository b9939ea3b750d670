// The order form of the contract screen: long or short, a leverage from the symbol's choices, a
// size by margin (USDT) or by quantity with a slider over the available balance, optional
// take-profit and stop-loss checked against the side and the price as they are typed, and the
// cost before anything is sent (margin, fee, notional, estimated liquidation price; all exact,
// preview.ts). "Open" shows a confirmation sheet that repeats them; the sheet makes one
// clientOrderId, which a retry after a failure sends again (so a flaky network cannot open the
// position twice). The server's refusals show under the field they concern or under the form.
import { useMemo, useRef, useState } from 'react';
import { Button, Form, Input, Popup, Slider } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { formatAmount } from '../../../api/contract/amounts.ts';
import { failureText } from '../../../api/errorMessages.ts';
import type { Direction, Position, SymbolTradeSettings } from '../../../api/contract/trading.ts';
import { marginScale } from '../../../api/contract/tradingMath.ts';
import type { FieldsByCode } from '../../../components/form/fieldErrors.ts';
import { FormError } from '../../../components/form/FormError.tsx';
import { useFormFailure } from '../../../components/form/useFormFailure.ts';
import { showToast } from '../../../components/feedback.tsx';
import { formatDecimal } from '../../../lib/number.ts';
import { i18n } from '../../../lib/i18n.ts';
import { intlOf } from '../../../lib/locales.ts';
import { useCreatePositionMutation } from '../../../entities/trade/tradeApi.ts';
import { previewOrder, sizeForPercent, unitsOf, type Preview, type SizeMode, type SizeProblem } from './preview.ts';
import { Amount } from '../../../components/Amount.tsx';
import PushOffer from '../../../components/PushOffer.tsx';

const fieldsByCode: FieldsByCode = {
  take_profit_wrong_side: 'takeProfit', stop_loss_wrong_side: 'stopLoss', price_invalid: 'takeProfit',
  size_required: 'size', quantity_too_small: 'size', quantity_too_large: 'size', margin_too_small: 'size',
  margin_too_large: 'size', balance_insufficient: 'size', amount_malformed: 'size', amount_too_many_decimals: 'size',
};

const sizeProblemTexts: Record<'size_invalid' | 'balance_insufficient', MessageDescriptor> = {
  size_invalid: msg`Please enter a valid number.`,
  balance_insufficient: msg`The balance does not cover the margin and the fee.`,
};

/** Atomic USDT rounded up to cents: a minimum shown truncated would be refused again. */
const upToCents = (atomic: bigint) => ((atomic + 9_999n) / 10_000n) * 10_000n;

/**
 * What is wrong with the size, said in the unit the user typed and with the bound's value: sized
 * by margin, a margin too small for the minimum quantity is "the minimum margin at 5× is 10.01
 * USDT", never "the quantity is below the minimum" (issue 19 #8).
 */
export function sizeProblemText(problem: Exclude<SizeProblem, 'size_required'>, preview: Pick<Preview, 'sizeMin' | 'sizeMax'>,
  context: { settings: SymbolTradeSettings; leverage: number; intl: string }): string {
  const { settings, leverage, intl } = context;
  const base = settings.symbol.replace(/USDT?$/, '');
  const margin = (atomic: bigint) => formatDecimal(formatAmount(atomic, marginScale), 2, intl);
  const quantity = (units: bigint) => formatDecimal(formatAmount(units, settings.quantityPrecision), settings.quantityPrecision, intl);
  const most = preview.sizeMax ?? 0n;
  switch (problem) {
    case 'margin_too_small': {
      const amount = margin(upToCents(preview.sizeMin));
      return i18n._(msg`The minimum margin at ${leverage}× is ${amount} USDT.`);
    }
    case 'margin_too_large': {
      const amount = margin(most);
      return i18n._(msg`The maximum margin at ${leverage}× is ${amount} USDT.`);
    }
    case 'quantity_too_small': {
      const amount = quantity(preview.sizeMin);
      return i18n._(msg`The minimum quantity is ${amount} ${base}.`);
    }
    case 'quantity_too_large': {
      const amount = quantity(most);
      return i18n._(msg`The maximum quantity is ${amount} ${base}.`);
    }
    default:
      return i18n._(sizeProblemTexts[problem]);
  }
}

/** A new retry key: the same one is sent again when the user retries the same confirmation. */
export const newClientOrderId = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`)
  .replace(/[^A-Za-z0-9_.:-]/g, '');

interface Values { size?: string; takeProfit?: string; stopLoss?: string; leverage?: number }

export interface OrderFormProps {
  settings: SymbolTradeSettings;
  last: string | undefined;
  available: string | undefined;
  demo: boolean;
  /** Why trading is off now (offline, market closed), shown in place of the button's action. */
  disabledReason: string | undefined;
  initialDirection?: Direction;
  onOpened?: (position: Position) => void;
  /** Issue 23: open on this trading competition's account instead of spot. */
  competitionId?: string;
}

export function OrderForm({ settings, last, available, demo, disabledReason, initialDirection = 'long', onOpened, competitionId }: OrderFormProps) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const [form] = Form.useForm<Values>();
  const failure = useFormFailure(form, fieldsByCode);
  const [direction, setDirection] = useState<Direction>(initialDirection);
  const [leverage, setLeverage] = useState<number>(settings.leverages[0] ?? 1);
  const [sizeMode, setSizeMode] = useState<SizeMode>('margin');
  const [percent, setPercent] = useState(0);
  const [confirming, setConfirming] = useState<{ preview: Preview; clientOrderId: string; values: Values }>();
  const [sheetFailure, setSheetFailure] = useState<string>();
  const [create, creating] = useCreatePositionMutation();
  /** A real position opened from this form: the first one on this device offers push. */
  const [openedHere, setOpenedHere] = useState(false);
  const lastSymbol = useRef(settings.symbol);
  if (lastSymbol.current !== settings.symbol) {
    lastSymbol.current = settings.symbol;
    if (!settings.leverages.includes(leverage)) setLeverage(settings.leverages[0] ?? 1);
  }
  const chosenLeverage = settings.leverages.includes(leverage) ? leverage : settings.leverages[0] ?? 1;

  const size = (Form.useWatch('size', form) as string | undefined) ?? '';
  const takeProfit = (Form.useWatch('takeProfit', form) as string | undefined) ?? '';
  const stopLoss = (Form.useWatch('stopLoss', form) as string | undefined) ?? '';
  const availableUnits = unitsOf(available ?? '0', marginScale) ?? 0n;
  const preview = useMemo(() => (last === undefined ? undefined : previewOrder(settings, last, {
    direction, leverage: chosenLeverage, sizeMode, size: size.replace(',', '.'), takeProfit: takeProfit.replace(',', '.'),
    stopLoss: stopLoss.replace(',', '.'),
  }, availableUnits)), [settings, last, direction, chosenLeverage, sizeMode, size, takeProfit, stopLoss, availableUnits]);

  const pp = settings.pricePrecision;
  const money = (value: bigint) => formatDecimal(formatAmount(value, marginScale), 2, intl);
  const price = (value: bigint) => formatDecimal(formatAmount(value, pp), pp, intl);
  const quantityText = (value: bigint) => formatDecimal(formatAmount(value, settings.quantityPrecision), settings.quantityPrecision, intl);
  const long = direction === 'long';
  const base = settings.symbol.replace(/USDT?$/, '');

  const sizeError = preview?.sizeProblem && preview.sizeProblem !== 'size_required' && size.trim() !== ''
    ? sizeProblemText(preview.sizeProblem, preview, { settings, leverage: chosenLeverage, intl }) : undefined;
  const takeProfitError = !preview ? undefined : !preview.takeProfitValid ? t`Please enter a valid price.`
    : !preview.takeProfitOk ? (long ? t`For a long, the take-profit must be above the current price.` : t`For a short, the take-profit must be below the current price.`)
      : undefined;
  const stopLossError = !preview ? undefined : !preview.stopLossValid ? t`Please enter a valid price.`
    : !preview.stopLossOk ? (long ? t`For a long, the stop-loss must be below the current price.` : t`For a short, the stop-loss must be above the current price.`)
      : undefined;
  const ready = preview !== undefined && !preview.sizeProblem && !takeProfitError && !stopLossError;

  const choosePercent = (value: number) => {
    setPercent(value);
    if (last === undefined) return;
    form.setFieldValue('size', sizeForPercent(settings, last, direction, chosenLeverage, sizeMode, availableUnits, value));
    failure.onValuesChange({ size: true });
  };

  const openSheet = () => {
    if (!preview || !ready || disabledReason) return;
    failure.clear();
    setSheetFailure(undefined);
    setConfirming({ preview, clientOrderId: newClientOrderId(), values: { size, takeProfit, stopLoss, leverage: chosenLeverage } });
  };

  const send = async () => {
    if (!confirming) return;
    setSheetFailure(undefined);
    const { values } = confirming;
    const sizeText = (values.size ?? '').trim().replace(',', '.');
    const result = await create({
      symbol: settings.symbol, direction, leverage: values.leverage ?? chosenLeverage,
      ...(sizeMode === 'margin' ? { margin: sizeText } : { quantity: sizeText }),
      ...(values.takeProfit?.trim() ? { takeProfit: values.takeProfit.trim().replace(',', '.') } : {}),
      ...(values.stopLoss?.trim() ? { stopLoss: values.stopLoss.trim().replace(',', '.') } : {}),
      clientOrderId: confirming.clientOrderId,
      ...(demo ? { demo: true } : {}),
      ...(competitionId && !demo ? { competitionId } : {}),
    });
    if (result.data) {
      setConfirming(undefined);
      form.resetFields();
      setPercent(0);
      void showToast(t`Position opened`);
      if (!demo) setOpenedHere(true);
      onOpened?.(result.data);
      return;
    }
    const error = result.error as { kind?: string } | undefined;
    if (error?.kind === 'network') {
      // Kept open with the same clientOrderId: retrying cannot open a second position.
      setSheetFailure(failureText(result.error));
      return;
    }
    setConfirming(undefined);
    failure.show(inTypedUnit(result.error, confirming.preview, values.leverage ?? chosenLeverage));
  };

  /**
   * The server's size refusal in the unit the user typed: an order sized by margin whose price
   * moved below the minimum quantity is told its minimum margin, not a quantity it never typed.
   */
  const inTypedUnit = (error: unknown, sent: Preview, sentLeverage: number): unknown => {
    const failed = error as { kind?: string; error?: string } | undefined;
    if (failed?.kind !== 'api' || sizeMode !== 'margin') return error;
    const problem = failed.error === 'quantity_too_small' || failed.error === 'margin_too_small' ? 'margin_too_small'
      : failed.error === 'quantity_too_large' || failed.error === 'margin_too_large' ? 'margin_too_large' : undefined;
    if (!problem) return error;
    return { ...failed, error: problem, message: sizeProblemText(problem, sent, { settings, leverage: sentLeverage, intl }) };
  };

  // The placeholder's minimum is the one the size message names: by margin, what the minimum quantity costs now.
  const minimum = sizeMode === 'margin'
    ? formatDecimal(formatAmount(upToCents(preview?.sizeMin ?? unitsOf(settings.marginMin, marginScale) ?? 0n), marginScale), 2, intl)
    : formatDecimal(settings.quantityMin, settings.quantityPrecision, intl);
  const directionLabel = long ? t`Buy long` : t`Sell short`;
  const disabled = Boolean(disabledReason);
  return (
    <section className="order-form" aria-label={t`New order`}>
      <div className="direction-switch" role="radiogroup" aria-label={t`Direction`}>
        <button type="button" role="radio" aria-checked={long} className={`direction-button long${long ? ' active' : ''}`}
          onClick={() => setDirection('long')}>{t`Buy long`}</button>
        <button type="button" role="radio" aria-checked={!long} className={`direction-button short${!long ? ' active' : ''}`}
          onClick={() => setDirection('short')}>{t`Sell short`}</button>
      </div>

      <div className="order-row">
        <span id="leverage-label" className="order-label">{t`Leverage`}</span>
        <div className="leverage-choices" role="radiogroup" aria-labelledby="leverage-label">
          {settings.leverages.map((choice) => (
            <button key={choice} type="button" role="radio" aria-checked={choice === chosenLeverage}
              className={`chip${choice === chosenLeverage ? ' active' : ''}`} onClick={() => setLeverage(choice)}>
              {choice}×
            </button>
          ))}
        </div>
      </div>

      <Form form={form} name="order" layout="vertical" onValuesChange={failure.onValuesChange} footer={null} className="order-fields">
        <div className="order-row">
          <span id="size-mode-label" className="order-label">{t`Size by`}</span>
          <div className="size-modes" role="radiogroup" aria-labelledby="size-mode-label">
            <button type="button" role="radio" aria-checked={sizeMode === 'margin'} className={`chip${sizeMode === 'margin' ? ' active' : ''}`}
              onClick={() => { setSizeMode('margin'); form.setFieldValue('size', ''); setPercent(0); }}>{t`Margin (USDT)`}</button>
            <button type="button" role="radio" aria-checked={sizeMode === 'quantity'} className={`chip${sizeMode === 'quantity' ? ' active' : ''}`}
              onClick={() => { setSizeMode('quantity'); form.setFieldValue('size', ''); setPercent(0); }}>{t`Quantity (${base})`}</button>
          </div>
        </div>
        <Form.Item name="size" label={sizeMode === 'margin' ? t`Margin (USDT)` : t`Quantity (${base})`}
          description={sizeError && <span className="field-problem">{sizeError}</span>} className={sizeError ? 'has-problem' : undefined}>
          <Input inputMode="decimal" autoComplete="off" clearable maxLength={40}
            placeholder={t`Min ${minimum}`} />
        </Form.Item>
        <div className="size-slider">
          <Slider value={percent} min={0} max={100} step={25} ticks onChange={(value) => choosePercent(value as number)}
            aria-label={t`Share of the available balance`} />
          <p className="order-available">{t`Available`}: <Amount value={formatAmount(availableUnits, marginScale)} asset="USDT" withAsset />{demo && <span className="demo-badge">{t`Demo`}</span>}</p>
        </div>
        <div className="level-inputs">
          <Form.Item name="takeProfit" label={t`Take-profit (optional)`} description={takeProfitError && <span className="field-problem">{takeProfitError}</span>} className={takeProfitError ? 'has-problem' : undefined}>
            <Input inputMode="decimal" autoComplete="off" clearable maxLength={40} placeholder={t`Price`} />
          </Form.Item>
          <Form.Item name="stopLoss" label={t`Stop-loss (optional)`} description={stopLossError && <span className="field-problem">{stopLossError}</span>} className={stopLossError ? 'has-problem' : undefined}>
            <Input inputMode="decimal" autoComplete="off" clearable maxLength={40} placeholder={t`Price`} />
          </Form.Item>
        </div>
      </Form>

      <dl className="order-preview" aria-label={t`Cost`}>
        <div><dt>{t`Entry price`}</dt><dd className="mono" data-testid="preview-entry">{preview ? price(preview.entry) : '—'}</dd></div>
        <div><dt>{t`Quantity`}</dt><dd className="mono" data-testid="preview-quantity">{preview && preview.quantity > 0n ? quantityText(preview.quantity) : '—'}</dd></div>
        <div><dt>{t`Margin`}</dt><dd className="mono" data-testid="preview-margin">{preview && preview.quantity > 0n ? money(preview.margin) : '—'}</dd></div>
        <div><dt>{t`Fee`}</dt><dd className="mono" data-testid="preview-fee">{preview && preview.quantity > 0n ? money(preview.fee) : '—'}</dd></div>
        <div><dt>{t`Notional`}</dt><dd className="mono" data-testid="preview-notional">{preview && preview.quantity > 0n ? money(preview.notional) : '—'}</dd></div>
        <div><dt>{t`Est. liquidation price`}</dt><dd className="mono" data-testid="preview-liquidation">{preview && preview.quantity > 0n ? (preview.liquidation === null ? t`None` : price(preview.liquidation)) : '—'}</dd></div>
      </dl>

      <FormError {...failure.placed} />
      {disabledReason && <p className="trade-disabled" role="status">{disabledReason}</p>}
      <Button block color={long ? 'success' : 'danger'} className="order-submit" disabled={disabled || !ready} onClick={openSheet}>
        {directionLabel}{demo ? ` · ${t`Demo`}` : ''}
      </Button>
      {openedHere && <PushOffer reason="trade" />}

      <Popup visible={confirming !== undefined} onMaskClick={() => { if (!creating.isLoading) setConfirming(undefined); }}
        bodyClassName="trade-sheet" destroyOnClose>
        {confirming && (
          <div role="dialog" aria-modal="true" aria-labelledby="order-confirm-title">
            <h2 id="order-confirm-title" className="sheet-title">
              {directionLabel} {settings.symbol} {chosenLeverage}×{demo && <span className="demo-badge">{t`Demo`}</span>}
            </h2>
            <dl className="order-preview">
              <div><dt>{t`Entry price (about)`}</dt><dd className="mono">{price(confirming.preview.entry)}</dd></div>
              <div><dt>{t`Quantity`}</dt><dd className="mono">{quantityText(confirming.preview.quantity)}</dd></div>
              <div><dt>{t`Margin`}</dt><dd className="mono">{money(confirming.preview.margin)} USDT</dd></div>
              <div><dt>{t`Fee`}</dt><dd className="mono">{money(confirming.preview.fee)} USDT</dd></div>
              <div><dt>{t`Total`}</dt><dd className="mono">{money(confirming.preview.cost)} USDT</dd></div>
              <div><dt>{t`Est. liquidation price`}</dt><dd className="mono">{confirming.preview.liquidation === null ? t`None` : price(confirming.preview.liquidation)}</dd></div>
              {confirming.preview.takeProfit !== null && <div><dt>{t`Take-profit`}</dt><dd className="mono">{price(confirming.preview.takeProfit)}</dd></div>}
              {confirming.preview.stopLoss !== null && <div><dt>{t`Stop-loss`}</dt><dd className="mono">{price(confirming.preview.stopLoss)}</dd></div>}
            </dl>
            <p className="receipt-note">{t`The position opens at the last recorded price when the server accepts it, plus or minus half the spread.`}</p>
            {sheetFailure && <p className="form-error" role="alert">{sheetFailure}</p>}
            <div className="sheet-actions">
              <Button onClick={() => setConfirming(undefined)} disabled={creating.isLoading}>{t`Cancel`}</Button>
              <Button color={long ? 'success' : 'danger'} loading={creating.isLoading} disabled={disabled} onClick={() => void send()}>
                {sheetFailure ? t`Retry` : t`Confirm`}
              </Button>
            </div>
          </div>
        )}
      </Popup>
    </section>
  );
}
