// The few icons of the first screen as inline SVG, so the home page does not load an icon
// library. Each is decorative (aria-hidden); the control around it carries the label.
import type { ReactElement } from 'react';

const icon = (paths: ReactElement) => function Icon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {paths}
    </svg>
  );
};

export const HomeIcon = icon(<><path d="M3 11l9-7 9 7" /><path d="M5 10v10h14V10" /><path d="M10 20v-6h4v6" /></>);
export const ChartIcon = icon(<><path d="M4 20V10" /><path d="M10 20V4" /><path d="M16 20v-8" /><path d="M22 20H2" /></>);
export const ContractIcon = icon(<><path d="M6 3h9l4 4v14H6z" /><path d="M14 3v5h5" /><path d="M9 13h7M9 17h7" /></>);
export const UserIcon = icon(<><circle cx="12" cy="8" r="4" /><path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" /></>);
export const GlobeIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M3 12h18" /><path d="M12 3c3 3.5 3 14.5 0 18c-3-3.5-3-14.5 0-18z" /></>);
export const LockIcon = icon(<><rect x="5" y="11" width="14" height="10" rx="2" /><path d="M8 11V8a4 4 0 0 1 8 0v3" /></>);
export const IdCardIcon = icon(<><rect x="3" y="5" width="18" height="14" rx="2" /><circle cx="9" cy="11" r="2.5" /><path d="M5.5 17c.8-1.8 2-2.7 3.5-2.7s2.7.9 3.5 2.7" /><path d="M15 10h4M15 14h3" /></>);
export const DepositIcon = icon(<path d="M12 3v11M7 9l5 5 5-5M4 16v4h16v-4" />);
export const CandlesIcon = icon(<path d="M8 3v3M8 17v4M16 3v4M16 15v6M5 6h6v11H5zM13 7h6v8h-6z" />);
export const TimerIcon = icon(<><circle cx="12" cy="13" r="8" /><path d="M12 9v4l3 2M10 2h4" /></>);
export const SwapIcon = icon(<path d="M4 8h14l-4-4M20 16H6l4 4" />);
export const ChatIcon = icon(<><path d="M4 5h16v11H9l-5 4z" /><path d="M8 9h8M8 12h5" /></>);
export const NoticeIcon = icon(<path d="M4 10v4h3l6 4V6L7 10zM16 9a4 4 0 0 1 0 6" />);
