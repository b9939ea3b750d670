// The icons of home's investment shortcuts (investment, AI quantitative, mining, debt, loan), as
// inline SVG like components/icons.tsx: decorative (aria-hidden), the button carries the label.
import type { ReactElement } from 'react';

const icon = (paths: ReactElement) => function Icon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {paths}
    </svg>
  );
};

export const InvestIcon = icon(<><path d="M3 17l6-6 4 4 8-8" /><path d="M15 7h6v6" /></>);
export const QuantIcon = icon(<><rect x="5" y="7" width="14" height="12" rx="2" /><path d="M12 3v4M9 12h.01M15 12h.01M9 16h6" /></>);
export const MiningIcon = icon(<><rect x="3" y="6" width="18" height="12" rx="2" /><path d="M7 10h4M7 14h4M15 10v4M18 10v4" /></>);
export const BondIcon = icon(<><path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" /><path d="M9 8h6M9 12h6" /></>);
export const LoanIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.7 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6v2M12 16v2" /></>);
