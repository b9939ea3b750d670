// The demo's content (issue 21): three notices, one pop-up announcement, six help articles in two
// categories and three news articles, in English and Simplified Chinese, written by the demo
// operator through the same createItem operators use (so they are sanitized and searchable like
// any other). Seeded once: nothing is added when any content exists.
import { eq, sql } from 'drizzle-orm';
import type { AdminItemBody } from '../../../../src/api/contract/content.ts';
import type { Db } from '../../../db/client.ts';
import { contentItems, operators } from '../../../db/schema.ts';
import { createItem } from './content.ts';

type Text = { title: string; body: string };
interface Seeded { kind: AdminItemBody['kind']; category?: string; popup?: boolean; en: Text; zh: Text }

const items: Seeded[] = [
  {
    kind: 'notice',
    en: { title: 'Welcome to Bourse', body: '<p>Bourse lets you follow live prices of crypto, gold and forex, fund your wallet, and trade contracts, timed contracts and swaps from your phone.</p><p>New here? Start with <strong>demo trading</strong>: it uses virtual funds you can reset at any time.</p>' },
    zh: { title: '欢迎使用 Bourse', body: '<p>在 Bourse，您可以在手机上查看加密货币、黄金和外汇的实时行情，为钱包充值，并交易合约、秒合约和闪兑。</p><p>初次使用？建议先试试<strong>模拟交易</strong>：它使用可随时重置的虚拟资金。</p>' },
  },
  {
    kind: 'notice',
    en: { title: 'Deposits are reviewed within 30 minutes', body: '<p>After you submit a deposit with its proof of transfer, an operator checks it against the network. Most deposits are credited within 30 minutes; you get a message as soon as yours is credited or if anything is missing.</p>' },
    zh: { title: '充值将在 30 分钟内审核', body: '<p>提交充值及转账凭证后，工作人员会在链上核对。大多数充值会在 30 分钟内到账；到账或资料不全时，您会立即收到站内消息。</p>' },
  },
  {
    kind: 'notice',
    en: { title: 'Protect your account with two-factor login', body: '<p>Turn on Google Authenticator in the <strong>security centre</strong>. With it on, a stolen password alone cannot open your account or move your funds.</p><p>We will never ask for your password or codes by phone, e-mail or chat.</p>' },
    zh: { title: '开启双重验证保护账户', body: '<p>请在<strong>安全中心</strong>开启谷歌验证器。开启后，仅凭被盗的密码无法登录您的账户或转移资金。</p><p>我们绝不会通过电话、邮件或在线客服索要您的密码或验证码。</p>' },
  },
  {
    kind: 'announcement', popup: true,
    en: { title: 'Notifications are here', body: '<p>Bourse can now tell you when a deposit is credited, a withdrawal is paid, a take-profit or stop-loss is hit, or a price alert triggers.</p><p>Open <strong>My → Notifications</strong> to choose what you want to hear about. Every message also waits for you in your inbox.</p>' },
    zh: { title: '消息通知上线了', body: '<p>现在，充值到账、提现完成、止盈止损触发或价格提醒时，Bourse 都可以通知您。</p><p>前往<strong>我的 → 通知设置</strong>选择您想接收的通知。所有消息也都会保存在站内信中。</p>' },
  },
  {
    kind: 'help', category: 'account',
    en: { title: 'How do I verify my identity?', body: '<p>Open <strong>My → Identity verification</strong>. Basic verification asks for your name, document number and a photo of each side of the document; advanced verification adds your address and an emergency contact.</p><p>An operator reviews each application. You get a message with the decision, and the reason if anything needs to be redone.</p>' },
    zh: { title: '如何进行身份认证？', body: '<p>打开<strong>我的 → 身份认证</strong>。初级认证需要填写姓名、证件号码并上传证件正反面照片；高级认证还需要填写地址和紧急联系人。</p><p>每份申请都由工作人员审核。审核结果会通过站内消息通知您，如需重新提交会说明原因。</p>' },
  },
  {
    kind: 'help', category: 'account',
    en: { title: 'I forgot my password', body: '<p>On the login page, tap <strong>Forgot password</strong>, enter the e-mail address or phone number you registered with, and type the code we send you. Then choose a new password of at least 8 characters with a letter and a digit.</p>' },
    zh: { title: '忘记密码怎么办？', body: '<p>在登录页点击<strong>忘记密码</strong>，输入注册时使用的邮箱或手机号，并填写我们发送的验证码，然后设置一个至少 8 位、包含字母和数字的新密码。</p>' },
  },
  {
    kind: 'help', category: 'account',
    en: { title: 'How do I turn on Google Authenticator?', body: '<p>Go to <strong>My → Security centre → Google Authenticator</strong>. Scan the QR code with the authenticator app, then enter the six-digit code it shows to confirm.</p><p>Keep the backup key somewhere safe: you need it if you change phones.</p>' },
    zh: { title: '如何开启谷歌验证器？', body: '<p>进入<strong>我的 → 安全中心 → 谷歌验证器</strong>，用验证器应用扫描二维码，再输入显示的六位数验证码完成绑定。</p><p>请妥善保存备份密钥：更换手机时需要用到它。</p>' },
  },
  {
    kind: 'help', category: 'funds',
    en: { title: 'How do I deposit?', body: '<p>Open <strong>Assets → Deposit</strong>, choose the currency and network, and send the funds to the address shown. Then enter the amount and upload a screenshot of the transfer as proof.</p><p>Always check the network: funds sent on the wrong network cannot be recovered.</p>' },
    zh: { title: '如何充值？', body: '<p>打开<strong>资产 → 充值</strong>，选择币种和网络，将资金转入页面显示的地址，然后填写金额并上传转账截图作为凭证。</p><p>请务必核对网络：通过错误网络转入的资金无法找回。</p>' },
  },
  {
    kind: 'help', category: 'funds',
    en: { title: 'How do I withdraw?', body: '<p>First set a <strong>withdrawal password</strong> and add a payout address or bank card. Then open <strong>Assets → Withdraw</strong>, enter the amount and confirm with your withdrawal password.</p><p>The fee is shown before you confirm. Withdrawals are reviewed and paid by operators; you get a message when yours is paid.</p>' },
    zh: { title: '如何提现？', body: '<p>请先设置<strong>资金密码</strong>并添加提现地址或银行卡，然后打开<strong>资产 → 提现</strong>，输入金额并用资金密码确认。</p><p>确认前会显示手续费。提现由工作人员审核并打款，完成后您会收到站内消息。</p>' },
  },
  {
    kind: 'help', category: 'funds',
    en: { title: 'Why was my deposit rejected?', body: '<p>A deposit is rejected when the proof does not match a transfer we received: a different amount, network or address, or an unreadable screenshot. The reason is shown in <strong>Deposit and withdrawal records</strong> and in your message.</p><p>Nothing is lost: submit the deposit again with the right details, or contact support from the home page.</p>' },
    zh: { title: '为什么我的充值被驳回？', body: '<p>当凭证与我们收到的转账不符时，充值会被驳回，例如金额、网络或地址不同，或截图无法辨认。驳回原因会显示在<strong>充提记录</strong>和站内消息中。</p><p>资金不会丢失：请填写正确信息重新提交，或在首页联系在线客服。</p>' },
  },
  {
    kind: 'article', category: 'market',
    en: { title: 'Gold and the dollar: what moves the price', body: '<p>Gold is priced in US dollars, so a weaker dollar tends to lift it and a stronger one to weigh on it. Real interest rates matter too: when they fall, holding gold, which pays no interest, costs less.</p><p>Follow <strong>XAU/USD</strong> on the market page to see these moves live.</p>' },
    zh: { title: '黄金与美元：影响金价的因素', body: '<p>黄金以美元计价，因此美元走弱时金价往往上涨，美元走强时则承压。实际利率同样重要：实际利率下降时，持有不生息的黄金成本更低。</p><p>在行情页关注 <strong>XAU/USD</strong>，实时查看这些变化。</p>' },
  },
  {
    kind: 'article', category: 'guide',
    en: { title: 'Take-profit and stop-loss, explained', body: '<p>A <strong>take-profit</strong> closes your position when the price reaches your target, locking in the gain. A <strong>stop-loss</strong> closes it when the price moves against you by as much as you accept to lose.</p><p>Both are checked on every price tick, and each close comes with a receipt of the tick it used.</p>' },
    zh: { title: '一文读懂止盈与止损', body: '<p><strong>止盈</strong>会在价格达到目标时平仓，锁定收益；<strong>止损</strong>会在价格向不利方向变动到您能接受的亏损时平仓。</p><p>两者都会在每一笔行情更新时检查，每次平仓都附有所用行情的凭据。</p>' },
  },
  {
    kind: 'article', category: 'guide',
    en: { title: 'Practise first with demo trading', body: '<p>Demo trading gives you virtual funds to try contracts and timed contracts at live prices, without risking money. Reset the balance whenever you like.</p><p>Demo results never mix with your real assets.</p>' },
    zh: { title: '先用模拟交易练手', body: '<p>模拟交易为您提供虚拟资金，可按实时价格体验合约和秒合约，无需承担资金风险。余额可随时重置。</p><p>模拟交易的盈亏不会与真实资产混在一起。</p>' },
  },
];

/**
 * Seeds the demo content once, as the demo operator; answers how many items it wrote. The pop-up
 * announcement is addressed to the demo account only (`popupUserId`): it shows what a pop-up is
 * to whoever tries the demo, and does not greet every account registered on a demo installation.
 */
export async function seedDemoContent(db: Db, operatorEmail: string, now: Date, popupUserId: bigint): Promise<number> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
  if (Number(n) > 0) return 0;
  const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, operatorEmail)).limit(1);
  if (!operator) return 0;
  await db.transaction(async (tx) => {
    // Oldest first, a minute apart, so the lists show them in this order newest first.
    for (const [index, item] of items.entries()) {
      await createItem(tx, now, operator.id, {
        kind: item.kind,
        translations: [{ lang: 'en-us', ...item.en }, { lang: 'zh-cn', ...item.zh }],
        ...(item.category ? { category: item.category } : {}),
        ...(item.popup ? { popup: true, audience: { kind: 'users' as const, userIds: [String(popupUserId)] } } : {}),
        publishAt: now.getTime() - (items.length - index) * 60_000,
      });
    }
  });
  return items.length;
}
