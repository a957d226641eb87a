// The sandbox's known state: private customers with 2 accounts and one card account each,
// corporate customers with 2 accounts each, agreements linking people to the corporates.
// Identifiers are derived from fixed labels so that they are the same after every initialisation.

import { createHash } from 'node:crypto';
import { addDays } from './clock.js';
import { completeNoBban, ibanFromBban } from './codes.js';
import { scaled } from './money.js';
import type { Account, Agreement, CardAccount, CardTransaction, Customer, Transaction, World } from './model.js';

export const BANK_BIC = 'CRBKNOKKXXX';

/** A UUID-formatted identifier derived from a label (not secret, just stable). */
function stableUuid(label: string): string {
  const h = createHash('sha256').update(label).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x40;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let bbanCounter = 0;
function nextBban(): string {
  for (;;) {
    bbanCounter += 1;
    const first10 = '9710' + String(10 + (bbanCounter % 80)).padStart(2, '0') + String(1000 + bbanCounter * 37).slice(-4);
    const b = completeNoBban(first10);
    if (b) return b;
  }
}

interface SeedCustomer {
  number: string;
  name: string;
  type: 'private' | 'corporate';
  town: string;
  accounts: {
    name: string;
    product: string;
    type: string;
    currency: string;
    balance: number;
    creditLine?: number;
    txCount: number;
    txDays: number;
  }[];
  card?: { name: string; pan: string; limit: number; used: number };
}

const CUSTOMERS: SeedCustomer[] = [
  {
    number: '13039319955',
    name: 'Ingrid Fjellheim',
    type: 'private',
    town: 'Trondheim',
    accounts: [
      {
        name: 'Brukskonto',
        product: 'Brukskonto',
        type: 'CACC',
        currency: 'NOK',
        balance: 85000,
        creditLine: 5000,
        txCount: 260,
        txDays: 400,
      },
      { name: 'Sparekonto', product: 'Høyrentekonto', type: 'SVGS', currency: 'NOK', balance: 250000, txCount: 12, txDays: 300 },
    ],
    card: { name: 'Mastercard Gull', pan: '525412******3019', limit: 50000, used: 12345.6 },
  },
  {
    number: '12085592767',
    name: 'Ola Testesen',
    type: 'private',
    town: 'Bergen',
    accounts: [
      { name: 'Lønnskonto', product: 'Brukskonto', type: 'CACC', currency: 'NOK', balance: 42500.5, txCount: 40, txDays: 365 },
      { name: 'BSU', product: 'Boligsparing for ungdom', type: 'SVGS', currency: 'NOK', balance: 120000, txCount: 8, txDays: 365 },
    ],
    card: { name: 'Visa Classic', pan: '492150******7721', limit: 30000, used: 4200 },
  },
  {
    number: '01078900497',
    name: 'Kari Nordmann',
    type: 'private',
    town: 'Oslo',
    accounts: [
      { name: 'Brukskonto', product: 'Brukskonto', type: 'CACC', currency: 'NOK', balance: 1250.75, txCount: 30, txDays: 200 },
      { name: 'Feriekonto', product: 'Sparekonto', type: 'SVGS', currency: 'NOK', balance: 18000, txCount: 6, txDays: 200 },
    ],
    card: { name: 'Mastercard Standard', pan: '525412******8804', limit: 15000, used: 14800 },
  },
  {
    number: '18129215603',
    name: 'Nordlys Testbedrift AS',
    type: 'corporate',
    town: 'Oslo',
    accounts: [
      { name: 'Driftskonto', product: 'Bedriftskonto', type: 'CACC', currency: 'NOK', balance: 1250000, txCount: 50, txDays: 365 },
      { name: 'Skattetrekkskonto', product: 'Skattetrekkskonto', type: 'TAXE', currency: 'NOK', balance: 310000, txCount: 10, txDays: 365 },
    ],
  },
  {
    number: '20079518612',
    name: 'Havbris Testselskap AS',
    type: 'corporate',
    town: 'Stavanger',
    accounts: [
      { name: 'Driftskonto', product: 'Bedriftskonto', type: 'CACC', currency: 'NOK', balance: 640000, txCount: 35, txDays: 365 },
      { name: 'Valutakonto EUR', product: 'Valutakonto', type: 'CACC', currency: 'EUR', balance: 75000, txCount: 15, txDays: 365 },
    ],
  },
];

const OUTGOING = [
  ['REMA 1000 Majorstuen', 'Dagligvarer'],
  ['Ruter AS', 'Månedskort'],
  ['Telenor Norge AS', 'Mobilabonnement'],
  ['Fjordkraft AS', 'Strømregning'],
  ['Vinmonopolet Aker Brygge', 'Varekjøp'],
  ['Boligbyggelaget Usbl', 'Husleie'],
  ['Gjensidige Forsikring', 'Forsikring'],
  ['Statens vegvesen', 'Bompenger'],
  ['Kiwi Grünerløkka', 'Dagligvarer'],
  ['NAV Innkreving', 'Tilbakebetaling'],
] as const;
const INCOMING = [
  ['Nordlys Testbedrift AS', 'Lønn'],
  ['Skatteetaten', 'Skatteoppgjør'],
  ['Vipps AS', 'Overføring fra venn'],
] as const;

function makeTransactions(world: World, accountLabel: string, currency: string, count: number, days: number, today: string): Transaction[] {
  const rnd = prng(createHash('sha256').update(accountLabel).digest().readUInt32BE(0));
  const out: Transaction[] = [];
  for (let i = 0; i < count; i++) {
    const incoming = rnd() < 0.15;
    const pair = incoming ? INCOMING[Math.floor(rnd() * INCOMING.length)] : OUTGOING[Math.floor(rnd() * OUTGOING.length)];
    const [party, text] = pair ?? ['Ukjent', 'Betaling'];
    const amountUnits = incoming ? 500 + Math.floor(rnd() * 30000) : -(20 + Math.floor(rnd() * 250000) / 100);
    const dayOffset = Math.floor((i * days) / Math.max(count, 1)) + (i % 3);
    const bookingDate = addDays(today, -Math.min(dayOffset, days));
    const counterIban = ibanFromBban('NO', completeNoBban('6010' + String(100000 + Math.floor(rnd() * 899999))) ?? '60100000000');
    const t: Transaction = {
      transactionId: stableUuid(`${accountLabel}|tx|${i}`),
      entryReference: `E${String(1000000 + i)}`,
      bookingDate,
      valueDate: bookingDate,
      amount: scaled(amountUnits),
      currency,
      remittance: [text],
      proprietary: {},
      seq: world.nextSeq(),
    };
    if (incoming) {
      t.debtorName = party;
      t.debtorAccount = { iban: counterIban };
      t.bankTransactionCode = 'PMNT-RCDT-DMCT';
    } else {
      t.creditorName = party;
      t.creditorAccount = { iban: counterIban };
      t.bankTransactionCode = 'PMNT-ICDT-DMCT';
      t.endToEndId = `E2E${String(i).padStart(6, '0')}`;
    }
    if (i % 5 === 0) t.proprietary['1'] = `ARK${String(80000000 + i * 7)}`;
    out.push(t);
  }
  // two pending transactions
  for (let j = 0; j < 2; j++) {
    out.push({
      transactionId: stableUuid(`${accountLabel}|pending|${j}`),
      valueDate: addDays(today, j),
      amount: scaled(-(99.9 + j * 250)),
      currency,
      creditorName: j === 0 ? 'Elkjøp Nordic AS' : 'SAS Norge',
      creditorAccount: { iban: ibanFromBban('NO', completeNoBban('6010' + String(500000 + j)) ?? '60100000000') },
      remittance: [j === 0 ? 'Varekjøp' : 'Flybilletter'],
      proprietary: {},
      seq: world.nextSeq(),
    });
  }
  return out;
}

const MERCHANTS = [
  ['Narvesen Oslo S', '5994'],
  ['Circle K Sandvika', '5541'],
  ['Amazon EU', '5942'],
  ['Norwegian Air Shuttle', '4511'],
  ['Espresso House', '5814'],
] as const;

function makeCardTransactions(world: World, label: string, maskedPan: string, today: string): CardTransaction[] {
  const rnd = prng(createHash('sha256').update(label).digest().readUInt32BE(0));
  const out: CardTransaction[] = [];
  for (let i = 0; i < 17; i++) {
    const [merchant, mcc] = MERCHANTS[Math.floor(rnd() * MERCHANTS.length)] ?? ['Ukjent', '5999'];
    const foreign = merchant === 'Amazon EU';
    const nok = -(25 + Math.floor(rnd() * 150000) / 100);
    const txDate = addDays(today, -(i * 6 + 1));
    const pending = i >= 15;
    out.push({
      // Berlin Group 1.3.8, cardTransactionId: "maxLength: 35" (a UUID without its hyphens)
      cardTransactionId: stableUuid(`${label}|ctx|${i}`).replaceAll('-', ''),
      terminalId: `T${String(40000 + i)}`,
      transactionDate: pending ? addDays(today, -(i - 15)) : txDate,
      ...(pending ? {} : { bookingDate: addDays(txDate, 1) }),
      transactionAmount: { amount: scaled(nok), currency: 'NOK' },
      ...(foreign
        ? { originalAmount: { amount: scaled(Math.round((nok / 11.5) * 100) / 100), currency: 'EUR' }, markupFeePercentage: '1.75' }
        : {}),
      merchantCategoryCode: mcc,
      cardAcceptorId: `ACQ${String(70000 + i)}`,
      cardAcceptorAddress: { townName: foreign ? 'Luxembourg' : 'Oslo', country: foreign ? 'LU' : 'NO' },
      maskedPan,
      transactionDetails: merchant,
      invoiced: !pending && i > 8,
      seq: world.nextSeq(),
    });
  }
  return out;
}

/** Resets a world to the known state (the clock is kept). */
export function seedWorld(world: World): void {
  bbanCounter = 0;
  world.customers.clear();
  world.accounts.clear();
  world.cardAccounts.clear();
  world.agreements.clear();
  world.payments.clear();
  world.baskets.clear();
  world.consents.clear();
  world.grants.clear();
  world.sessions.clear();
  world.quotas.clear();
  world.lastBatchCheck = world.now();
  world.nextBatchAt = undefined;
  const today = world.today();
  const nowIso = new Date(world.now()).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const accountIdsOf = new Map<string, string[]>();

  for (const sc of CUSTOMERS) {
    const customer: Customer = { customerNumber: sc.number, name: sc.name, type: sc.type, townName: sc.town, country: 'NO', manual: false };
    world.customers.set(customer.customerNumber, customer);
    const ids: string[] = [];
    sc.accounts.forEach((sa, idx) => {
      const bban = nextBban();
      const iban = ibanFromBban('NO', bban);
      const resourceId = stableUuid(`account|${iban}`);
      const account: Account = {
        resourceId,
        customerNumber: sc.number,
        iban,
        bban,
        bic: BANK_BIC,
        currency: sa.currency,
        name: sa.name,
        product: sa.product,
        cashAccountType: sa.type,
        status: 'enabled',
        usage: sc.type === 'private' ? 'PRIV' : 'ORGA',
        ownerName: undefined,
        creditLine: scaled(sa.creditLine ?? 0),
        balances: [
          {
            balanceType: 'interimAvailable',
            amount: scaled(sa.balance + (sa.creditLine ?? 0)),
            currency: sa.currency,
            creditLimitIncluded: (sa.creditLine ?? 0) > 0,
            lastChangeDateTime: nowIso,
          },
          { balanceType: 'expected', amount: scaled(sa.balance), currency: sa.currency, referenceDate: today },
        ],
        transactions: makeTransactions(world, `${sc.number}|${idx}`, sa.currency, sa.txCount, sa.txDays, today),
        paymentsAllowed: true,
        manual: false,
      };
      world.accounts.set(resourceId, account);
      ids.push(resourceId);
    });
    accountIdsOf.set(sc.number, ids);
    if (sc.card) {
      const resourceId = stableUuid(`card|${sc.card.pan}`);
      const card: CardAccount = {
        resourceId,
        customerNumber: sc.number,
        maskedPan: sc.card.pan,
        currency: 'NOK',
        name: sc.card.name,
        product: 'Kredittkort',
        status: 'enabled',
        usage: 'PRIV',
        ownerName: undefined,
        creditLimit: { amount: scaled(sc.card.limit), currency: 'NOK' },
        balances: [
          { balanceType: 'interimBooked', amount: scaled(-sc.card.used), currency: 'NOK', referenceDate: today },
          {
            balanceType: 'interimAvailable',
            amount: scaled(sc.card.limit - sc.card.used),
            currency: 'NOK',
            creditLimitIncluded: true,
            lastChangeDateTime: nowIso,
          },
        ],
        cardId: stableUuid(`cardid|${sc.card.pan}`).slice(0, 8),
        accountNumber: nextBban(),
        expiry: '12/29',
        transactions: makeCardTransactions(world, `card|${sc.number}`, sc.card.pan, today),
        manual: false,
      };
      world.cardAccounts.set(resourceId, card);
    }
  }

  const nordlys = accountIdsOf.get('18129215603') ?? [];
  const havbris = accountIdsOf.get('20079518612') ?? [];
  const agreements: Agreement[] = [
    {
      agreementId: 'AGR-18129215603-1',
      owner: '18129215603',
      name: 'Nordlys Testbedrift AS – nettbank bedrift',
      engagements: [
        ...nordlys.map((id) => ({ customer: '13039319955', accountId: id, roles: ['VIEW' as const, 'REGISTER' as const] })),
        ...nordlys.slice(0, 1).map((id) => ({ customer: '12085592767', accountId: id, roles: ['VIEW' as const] })),
      ],
      manual: false,
    },
    {
      agreementId: 'AGR-20079518612-1',
      owner: '20079518612',
      name: 'Havbris Testselskap AS – nettbank bedrift',
      engagements: havbris.map((id) => ({ customer: '12085592767', accountId: id, roles: ['VIEW' as const, 'REGISTER' as const] })),
      manual: false,
    },
  ];
  for (const a of agreements) world.agreements.set(a.agreementId, a);
}
