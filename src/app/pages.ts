// The page modules of every route but home (app/routes.ts): a chunk of its own, loaded after the
// first screen, so their imports stay out of the first screen's code. Keyed by route path.
export const pages = {
  gerenziliao: () => import('../features/profile/PersonalDataPage.tsx'),
  shenfenRenzheng: () => import('../features/identity/BasicVerificationPage.tsx'),
  shenfenRenzhengAd: () => import('../features/identity/AdvancedVerificationPage.tsx'),
  renzhengResult: () => import('../features/identity/VerificationResultPage.tsx'),
  anquanZhongxin: () => import('../features/security/SecurityPage.tsx'),
  zichanCenter: () => import('../features/wallet/AssetCentrePage.tsx'),
  zhangbianRecord: () => import('../features/wallet/LedgerPage.tsx'),
  hangqing: () => import('../features/market/MarketPage.tsx'),
  my: () => import('../features/profile/MyPage.tsx'),
  chongzhitixianRecord: () => import('../features/wallet/RecordsPage.tsx'),
  chongzhi: () => import('../features/wallet/DepositPage.tsx'),
  tixian: () => import('../features/wallet/WithdrawPage.tsx'),
  chongzhitixianResult: () => import('../features/wallet/ResultPage.tsx'),
  jiesuanInfo: () => import('../features/wallet/SettlementInfoPage.tsx'),
  heyue: () => import('../features/trade/ContractPage.tsx'),
  shandui: () => import('../features/swap/SwapPage.tsx'),
  shanduiOrder: () => import('../features/swap/SwapOrdersPage.tsx'),
  demotrading: () => import('../features/trade/DemoTradingPage.tsx'),
  kline: () => import('../features/kline/KlinePage.tsx'),
  outlink: () => import('../features/outlink/OutlinkPage.tsx'),
  xinwen: () => import('../features/notices/NewsPage.tsx'),
  articleList: () => import('../features/notices/ArticleListPage.tsx'),
  articleDetail: () => import('../features/notices/ArticleDetailPage.tsx'),
  notice: () => import('../features/notices/NoticesPage.tsx'),
  noticeDetail: () => import('../features/notices/NoticeDetailPage.tsx'),
  announcements: () => import('../features/notices/AnnouncementsPage.tsx'),
  messages: () => import('../features/notices/MessagesPage.tsx'),
  helpCentre: () => import('../features/notices/HelpCentrePage.tsx'),
  helpDetail: () => import('../features/notices/HelpDetailPage.tsx'),
  login: () => import('../features/auth/LoginPage.tsx'),
  notificationSettings: () => import('../features/notifications/NotificationSettingsPage.tsx'),
  priceAlerts: () => import('../features/notifications/PriceAlertsPage.tsx'),
  chat: () => import('../features/chat/ChatPage.tsx'),
  taolilicai: () => import('../features/invest/ProductListPage.tsx'),
  taolilicaiDetail: () => import('../features/invest/ProductDetailPage.tsx'),
  taoliOk: () => import('../features/invest/PurchaseDonePage.tsx'),
  taoliOrder: () => import('../features/invest/ProductOrdersPage.tsx'),
  kuangchi: () => import('../features/invest/MiningListPage.tsx'),
  kuangchiDetail: () => import('../features/invest/MiningDetailPage.tsx'),
  kuangchiPool: () => import('../features/invest/MiningPoolPage.tsx'),
  zhaiquan: () => import('../features/invest/BondListPage.tsx'),
  zhaiquanDetail: () => import('../features/invest/BondDetailPage.tsx'),
  vipLevel: () => import('../features/invest/VipLevelPage.tsx'),
  fuliCenter: () => import('../features/marketing/rewards/WelfarePage.tsx'),
  ieo: () => import('../features/marketing/ieo/IeoPage.tsx'),
  jiedai: () => import('../features/loans/LoanPage.tsx'),
  jiedaiHetong: () => import('../features/loans/LoanAgreementPage.tsx'),
  jiedaiOrder: () => import('../features/loans/LoanOrdersPage.tsx'),
  tuanduiYaoqing: () => import('../features/marketing/team/TeamPage.tsx'),
  bisai: () => import('../features/marketing/competitions/CompetitionListPage.tsx'),
  bisaiDetail: () => import('../features/marketing/competitions/CompetitionDetailPage.tsx'),
  bisaiMycansai: () => import('../features/marketing/competitions/MyEntriesPage.tsx'),
};

export type PageName = keyof typeof pages;

/** The maintenance and "please update" page over the app (app/Root.tsx), with its texts. */
export const loadServiceNotice = () => import('../features/notices/ServiceNotice.tsx').then(async (module) => {
  await module.prepare();
  return module;
});

/** Home's notice strip, pop-up announcement and bell (features/notices), with their texts. */
export const loadHomeNotices = () => import('../features/notices/HomeNotices.tsx').then(async (module) => {
  await module.prepare();
  return module;
});
