// VIP levels (issue 22): each level's name, the total assets in USDT from which it applies and the
// credit it adds to the credit-loan limit, editable in place and saved per row. The form checks
// amounts first; the server checks again (thresholds must rise with the level) and its refusal shows
// in the row. Users' levels follow their assets by themselves (the vip-levels job, and after large
// movements); nothing here sets one user's level.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Input, Table, Typography } from 'antd';
import type { VipLevel } from '../../api/contract/levels.ts';
import { useMeQuery } from '../api.ts';
import { useUpdateVipLevelMutation, useVipLevelsQuery } from '../investApi.ts';
import { formatCount } from '../format.ts';
import { amountProblem, fieldProblemText, investFailure as investFailureText, type FieldProblem } from './invest/investTexts.ts';

interface Draft { name: string; minAssets: string; creditLimit: string }
type RowState = { draft: Draft; failure?: string; problems?: Partial<Record<keyof Draft, FieldProblem>> };

const draftOf = (level: VipLevel): Draft => ({ name: level.name, minAssets: level.minAssets, creditLimit: level.creditLimit });

/** What is wrong with a row before sending, field by field. */
export function levelProblems(draft: Draft): Partial<Record<keyof Draft, FieldProblem>> {
  const problems: Partial<Record<keyof Draft, FieldProblem>> = {};
  if (!draft.name.trim()) problems.name = 'required';
  const assets = amountProblem(draft.minAssets, { zeroAllowed: true });
  if (assets) problems.minAssets = assets;
  const credit = amountProblem(draft.creditLimit, { zeroAllowed: true });
  if (credit) problems.creditLimit = credit;
  return problems;
}

export function LevelsScreen() {
  const { t } = useLingui();
  const { message } = App.useApp();
  const { data: me } = useMeQuery();
  const admin = me?.role === 'admin';
  const { data, isFetching, error } = useVipLevelsQuery();
  const [update] = useUpdateVipLevelMutation();
  const [rows, setRows] = useState<Record<number, RowState>>({});
  const [saving, setSaving] = useState<number>();
  useEffect(() => {
    if (data) setRows(Object.fromEntries(data.map((level) => [level.level, { draft: draftOf(level) }])));
  }, [data]);
  const edit = (level: number, field: keyof Draft, value: string) => setRows((now) => ({
    ...now, [level]: { draft: { ...now[level].draft, [field]: value }, problems: { ...now[level].problems, [field]: undefined } },
  }));
  const save = async (level: VipLevel) => {
    const draft = rows[level.level]?.draft;
    if (!draft) return;
    const problems = levelProblems(draft);
    if (Object.keys(problems).length > 0) {
      setRows((now) => ({ ...now, [level.level]: { draft, problems } }));
      return;
    }
    setSaving(level.level);
    const answer = await update({
      level: level.level, body: { name: draft.name.trim(), minAssets: draft.minAssets.trim(), creditLimit: draft.creditLimit.trim() },
    });
    setSaving(undefined);
    if ('error' in answer) {
      setRows((now) => ({ ...now, [level.level]: { draft, failure: investFailureText(answer.error) } }));
      return;
    }
    const number = level.level;
    void message.success(t`Level ${number} saved.`);
  };
  const field = (level: VipLevel, key: keyof Draft, label: string, width: number) => {
    const row = rows[level.level];
    const problem = row?.problems?.[key];
    const number = level.level;
    return (
      <div>
        <Input value={row?.draft[key] ?? ''} disabled={!admin} status={problem ? 'error' : undefined} style={{ width }}
          inputMode={key === 'name' ? undefined : 'decimal'} aria-label={t`${label} of level ${number}`} data-testid={`level-${key}-${number}`}
          onChange={(event) => edit(level.level, key, event.target.value)} />
        {problem && <Typography.Text type="danger" style={{ display: 'block' }}>{fieldProblemText(problem)}</Typography.Text>}
      </div>
    );
  };
  return (
    <Card>
      <Typography.Paragraph type="secondary">
        {t`A user's level follows their total assets in USDT, checked every day and after large movements: it rises and falls by itself. Thresholds must rise with the level. Every change is in the audit trail.`}
      </Typography.Paragraph>
      {!admin && me && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      {error && <Alert type="error" showIcon role="alert" title={investFailureText(error)} style={{ marginBottom: 16 }} />}
      <Table<VipLevel> rowKey="level" loading={isFetching} dataSource={data ?? []} pagination={false} size="middle" data-testid="vip-levels-table"
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'level', title: t`Level`, render: (_, level) => <strong>{level.level}</strong> },
          { key: 'name', title: t`Name`, render: (_, level) => field(level, 'name', t`Name`, 160) },
          { key: 'minAssets', title: t`From total assets (USDT)`, render: (_, level) => field(level, 'minAssets', t`Threshold`, 180) },
          { key: 'creditLimit', title: t`Added credit limit (USDT)`, render: (_, level) => field(level, 'creditLimit', t`Credit limit`, 180) },
          { key: 'products', title: t`Products unlocked`, align: 'right', render: (_, level) => formatCount(level.productsUnlocked ?? 0) },
          { key: 'save', title: '', render: (_, level) => {
            const number = level.level;
            const failure = rows[level.level]?.failure;
            return (
              <div style={{ maxWidth: 320 }}>
                {admin && (
                  <Button type="primary" size="small" loading={saving === level.level} onClick={() => void save(level)} aria-label={t`Save level ${number}`}>
                    {t`Save`}
                  </Button>
                )}
                {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 8 }} data-testid={`level-error-${number}`} />}
              </div>
            );
          } },
        ]} />
    </Card>
  );
}
