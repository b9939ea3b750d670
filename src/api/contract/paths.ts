// Every API path of the built features, relative to the /api prefix (spec §7).
export const apiPrefix = '/api';

export const paths = {
  serverTime: '/public/getServerTime',
  publicKey: '/public/getPublicKey',
  /** Readiness for load balancers (not named by the spec): 200 once market data and the database answer. */
  health: '/public/health',
  emailCaptcha: '/app/getEmailCaptcha',
  phoneCaptcha: '/app/getPhoneCaptcha',
  register: '/app/register',
  login: '/app/login',
  emailLogin: '/app/emailLogin',
  phoneLogin: '/app/phoneLogin',
  guestLogin: '/app/guestLogin',
  resetPassword: '/app/resetPassword',
  checkAccount: '/app/checkAccount',
  myUserInfo: '/user/appUser/getMyUserInfo',
  activeReport: '/user/appUser/activeReport',
  customerOnline: '/user/appUser/importantCustomerOnLine',
  changePassword: '/user/appUser/changePassword',
  updatePersonalData: '/user/appUser/updateKYC',
  logout: '/user/appUser/logout',
  settingByKey: '/set/appSysSet/getKeyByParam',
  symbolList: '/trade/appSymbol/list',
  symbolPrice: '/trade/appSymbol/price',
  tickerList: '/public/getTicketList',
  priceDistribution: '/trade/api/getPriceDistribution',
  /** Candle history for the chart (not named by the spec): symbol, period, endTime, limit. */
  kline: '/trade/appSymbol/kline',
} as const;

/**
 * Every encrypted JSON body carries this field: the client's estimate of server time in ms.
 * The server refuses bodies outside its freshness window and any body it has seen before, so a
 * replay cache bounded by the window suffices. It is removed before schema validation.
 */
export const requestTimeField = '_ts';
