// Words people type to find a market, besides its code and its name in the current language:
// the names and common aliases of each asset in every language of the app, so "gold", "oro",
// "금" and "ทองคำ" all find XAU/USD whatever the interface language. Only the market page's
// search uses this table, so it loads with that page, never with the home screen.
import type { Ticker } from '../../api/contract/market.ts';

const aliasesBySymbol: Readonly<Record<string, readonly string[]>> = {
  BTCUSDT: ['bitcoin', 'xbt', '比特币', '比特幣', '비트코인', 'ビットコイン', 'บิทคอยน์', 'บิตคอยน์'],
  ETHUSDT: ['ethereum', 'ether', '以太坊', '以太幣', '이더리움', 'イーサリアム', 'อีเธอเรียม'],
  SOLUSDT: ['solana', '索拉纳', '索拉納', '솔라나', 'ソラナ', 'โซลานา'],
  BNBUSDT: ['binance', 'bnb', '币安币', '幣安幣', '바이낸스', 'バイナンス', 'ไบแนนซ์'],
  XRPUSDT: ['ripple', '瑞波币', '瑞波幣', '리플', 'リップル', 'ริปเปิล'],
  DOGEUSDT: ['dogecoin', '狗狗币', '狗狗幣', '도지코인', 'ドージコイン', 'โดชคอยน์', 'ดอจคอยน์'],
  ADAUSDT: ['cardano', 'ada', '艾达币', '艾達幣', '卡尔达诺', '카르다노', '에이다', 'カルダノ', 'คาร์ดาโน'],
  TRXUSDT: ['tron', '波场', '波場', '트론', 'トロン', 'ทรอน'],
  LTCUSDT: ['litecoin', '莱特币', '萊特幣', '라이트코인', 'ライトコイン', 'ไลท์คอยน์'],
  DOTUSDT: ['polkadot', '波卡', '폴카닷', 'ポルカドット', 'โพลคาดอท'],
  LINKUSDT: ['chainlink', '체인링크', 'チェーンリンク', 'เชนลิงก์'],
  AVAXUSDT: ['avalanche', '雪崩', '아발란체', 'アバランチ', 'อวาแลนช์'],
  XAUUSD: ['gold', 'bullion', 'oro', '黄金', '黃金', '金', '금', '골드', 'ゴールド', 'ทองคำ', 'emas', 'vàng'],
  XAGUSD: ['silver', 'plata', '白银', '白銀', '银', '銀', '은', '실버', 'シルバー', 'เงิน', 'perak', 'bạc'],
  EURUSD: ['euro', 'fiber', '欧元', '歐元', '유로', 'ユーロ', 'ยูโร'],
  GBPUSD: ['pound', 'sterling', 'cable', 'libra esterlina', '英镑', '英鎊', '파운드', 'ポンド', 'ปอนด์', 'paun', 'bảng anh'],
  USDJPY: ['yen', '日元', '日圓', '円', '엔화', '엔', 'เยน', 'yên'],
  AUDUSD: ['aussie', 'australian dollar', 'dólar australiano', '澳元', '澳幣', '호주 달러', '豪ドル', 'ดอลลาร์ออสเตรเลีย',
    'dolar australia', 'đô la úc'],
  USDCHF: ['swiss franc', 'swissie', 'franco suizo', '瑞士法郎', '瑞郎', '스위스 프랑', 'スイスフラン', 'ฟรังก์สวิส', 'franc swiss',
    'franc thụy sĩ'],
  USDCAD: ['loonie', 'canadian dollar', 'dólar canadiense', '加元', '加幣', '캐나다 달러', 'カナダドル', 'ดอลลาร์แคนาดา', 'dolar kanada',
    'đô la canada'],
};

/** Words for the currencies markets are quoted in (or based on, for USD/JPY and the like). */
const currencyAliases: Readonly<Record<string, readonly string[]>> = {
  USD: ['dollar', 'dólar', '美元', '달러', 'ドル', 'ดอลลาร์', 'dolar', 'đô la'],
  USDT: ['tether', '泰达币', '泰達幣', '테더', 'テザー', 'เทเธอร์'],
};

/** The extra words of a market for `filterTickers`: its aliases, its currencies' and its name shown now. */
export function searchWords(ticker: Ticker, shownName: string | undefined): string[] {
  return [
    ...(aliasesBySymbol[ticker.symbol] ?? []),
    ...(currencyAliases[ticker.base] ?? []),
    ...(currencyAliases[ticker.quote] ?? []),
    ...(shownName ? [shownName] : []),
  ];
}
