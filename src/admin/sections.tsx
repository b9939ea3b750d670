// The back office's screens, in the side menu's order.
import type { ComponentType } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { DepositsScreen } from './pages/DepositsScreen.tsx';
import { WithdrawalsScreen } from './pages/WithdrawalsScreen.tsx';
import { SettingChangesScreen } from './pages/SettingChangesScreen.tsx';
import { SettingsScreen } from './pages/SettingsScreen.tsx';
import { LedgerScreen } from './pages/LedgerScreen.tsx';
import { AuditScreen } from './pages/AuditScreen.tsx';
import { LiabilitiesScreen } from './pages/LiabilitiesScreen.tsx';
import { TradeSettingsScreen } from './pages/TradeSettingsScreen.tsx';
import { TradesScreen } from './pages/TradesScreen.tsx';
import { KycScreen } from './pages/KycScreen.tsx';
import { UsersScreen } from './pages/UsersScreen.tsx';
import { OperatorSecurityScreen } from './pages/OperatorSecurityScreen.tsx';
import { ContentScreen } from './pages/ContentScreen.tsx';
import { MaintenanceScreen } from './pages/MaintenanceScreen.tsx';
import { ChatScreen } from './pages/ChatScreen.tsx';
import { ProductsScreen } from './pages/ProductsScreen.tsx';
import { JobsScreen } from './pages/JobsScreen.tsx';
import { LoansScreen } from './pages/LoansScreen.tsx';
import { LevelsScreen } from './pages/LevelsScreen.tsx';
import { TeamScreen } from './pages/marketing/TeamScreen.tsx';
import { RewardsScreen } from './pages/marketing/RewardsScreen.tsx';
import { IeoScreen } from './pages/marketing/IeoScreen.tsx';
import { CompetitionsScreen } from './pages/marketing/CompetitionsScreen.tsx';

export const sections = [
  { key: 'deposits', label: msg`Deposits`, Screen: DepositsScreen },
  { key: 'withdrawals', label: msg`Withdrawals`, Screen: WithdrawalsScreen },
  { key: 'setting-changes', label: msg`Setting changes`, Screen: SettingChangesScreen },
  { key: 'kyc', label: msg`Identity verification`, Screen: KycScreen },
  { key: 'users', label: msg`User search`, Screen: UsersScreen },
  { key: 'settings', label: msg`Currency settings`, Screen: SettingsScreen },
  { key: 'trades', label: msg`Trades`, Screen: TradesScreen },
  { key: 'trade-settings', label: msg`Trading settings`, Screen: TradeSettingsScreen },
  { key: 'products', label: msg`Products`, Screen: ProductsScreen },
  { key: 'jobs', label: msg`Scheduled jobs`, Screen: JobsScreen },
  { key: 'loans', label: msg`Loans`, Screen: LoansScreen },
  { key: 'levels', label: msg`VIP levels`, Screen: LevelsScreen },
  { key: 'team', label: msg`Team income`, Screen: TeamScreen },
  { key: 'rewards', label: msg`Rewards`, Screen: RewardsScreen },
  { key: 'ieo', label: msg`Token offerings`, Screen: IeoScreen },
  { key: 'competitions', label: msg`Trading competitions`, Screen: CompetitionsScreen },
  { key: 'chat', label: msg`Live chat`, Screen: ChatScreen },
  { key: 'content', label: msg`Notices and content`, Screen: ContentScreen },
  { key: 'maintenance', label: msg`Maintenance`, Screen: MaintenanceScreen },
  { key: 'ledger', label: msg`Ledger check`, Screen: LedgerScreen },
  { key: 'liabilities', label: msg`Proof of liabilities`, Screen: LiabilitiesScreen },
  { key: 'audit', label: msg`Audit trail`, Screen: AuditScreen },
  { key: 'my-security', label: msg`My authenticator`, Screen: OperatorSecurityScreen },
] as const satisfies ReadonlyArray<{ key: string; label: MessageDescriptor; Screen: ComponentType }>;

export type SectionKey = (typeof sections)[number]['key'];
