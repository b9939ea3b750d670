import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { copyText } from '../lib/clipboard.ts';
import { showToast } from './feedback.tsx';

/** Copies `text` and says so for 2 s: "Success" or "Fail" (spec §8). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useLingui();
  return (
    <Button size="mini" fill="outline" color="primary" aria-label={label}
      onClick={async () => {
        void showToast((await copyText(text)) ? t`Success` : t`Fail`);
      }}>
      {t`Copy`}
    </Button>
  );
}
