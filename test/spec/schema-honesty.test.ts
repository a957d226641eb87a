/**
 * Schema defects found when the catalogue was made never stricter than the specification: each test
 * holds one fix in place (amount precision of negative amounts, the basket status list, the sandbox
 * customer, the cashAccountType code list, relative scaRedirect addresses, the message codes, the links
 * of Berlin Group shaped resources).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CASH_ACCOUNT_TYPES } from '../../lib/spec/codelists.js';
import { requirementById } from '../../lib/spec/requirements.js';
import { BASKET_TRANSACTION_STATUSES, TRANSACTION_STATUSES } from '../../lib/spec/schemas/index.js';
import type { SchemaName } from '../../lib/spec/schemas/index.js';
import { formatErrors, validateAgainst } from '../../lib/validate/index.js';
import { EXAMPLES } from '../validate/fixtures/schema-examples.js';

const valid = (name: SchemaName, value: unknown): void => {
  const result = validateAgainst(name, value);
  assert.equal(result.valid, true, formatErrors(result.errors));
};

/** The errors at one pointer, as [rule, requirement] pairs. */
const errorsAt = (name: SchemaName, value: unknown, pointer: string): [string, string | undefined][] =>
  validateAgainst(name, value)
    .errors.filter((e) => e.pointer === pointer)
    .map((e) => [e.rule, e.requirement]);

const byLevel = (id: string): string | undefined => requirementById(id)?.level;

const payment = EXAMPLES.PaymentInitiationRequest as Record<string, unknown>;
const account = (EXAMPLES.AccountList as { accounts: Record<string, unknown>[] }).accounts[0] as Record<string, unknown>;

describe('amount precision applies whatever the sign (PAY-05)', () => {
  it('a 19-digit negative amount fails, an 18-digit one passes', () => {
    const nineteen = '-1234567890123456789';
    assert.deepEqual(
      errorsAt('PaymentAmount', { currency: 'JPY', amount: nineteen }, '/amount').map(([rule]) => rule),
      ['pattern ^(?:-|(?!-))0*(?!(?:\\.?[0-9]){19})'],
    );
    assert.ok(errorsAt('PaymentAmount', { currency: 'JPY', amount: nineteen }, '/amount').every(([, id]) => id?.includes('PAY-05')));
    valid('PaymentAmount', { currency: 'JPY', amount: '-123456789012345678' });
    valid('PaymentAmount', { currency: 'EUR', amount: '-1234567890123456.78' });
    assert.equal(validateAgainst('PaymentAmount', { currency: 'EUR', amount: '-12345678901234567.89' }).valid, false);
  });

  it('leading zeros are not counted, with or without the sign', () => {
    valid('PaymentAmount', { currency: 'JPY', amount: '-0000123456789012345678' });
    valid('PaymentAmount', { currency: 'JPY', amount: '0000123456789012345678' });
  });

  it('the same holds for a payment amount, where a negative amount is no schema error (PAY-48 is a SHOULD)', () => {
    const body = (amount: string): unknown => ({ ...payment, instructedAmount: { currency: 'JPY', amount } });
    assert.equal(validateAgainst('PaymentInitiationRequest', body('-1234567890123456789')).valid, false);
    valid('PaymentInitiationRequest', body('-15000'));
    valid('PaymentInitiationRequest', body('0'));
  });
});

describe('a signing basket status is a payment status (BSK-05)', () => {
  it('the basket list is the specification transactionStatus list', () => {
    assert.deepEqual([...BASKET_TRANSACTION_STATUSES], [...TRANSACTION_STATUSES]);
  });

  it('PATC fails, every status the worst case can produce passes', () => {
    for (const name of ['SigningBasketStatus', 'SigningBasket'] as const) {
      assert.deepEqual(errorsAt(name, { transactionStatus: 'PATC' }, '/transactionStatus'), [['enum', 'BSK-05']], name);
      for (const status of TRANSACTION_STATUSES) valid(name, { transactionStatus: status });
    }
    const created = EXAMPLES.SigningBasketCreationResponse as Record<string, unknown>;
    assert.deepEqual(errorsAt('SigningBasketCreationResponse', { ...created, transactionStatus: 'PATC' }, '/transactionStatus'), [
      ['enum', 'BSK-05'],
    ]);
  });
});

describe('a sandbox customer needs only a customer number and a type (SBX-05)', () => {
  it('a customer with only customerNumber and type validates, whatever the number', () => {
    valid('SandboxCustomer', { customerNumber: '13039319955', type: 'private' });
    valid('SandboxCustomer', { customerNumber: '12345678901', type: 'private' }); // fails mod-11: mocked numbers need not pass it
    valid('SandboxCustomer', { customerNumber: '123', type: 'corporate' });
    valid('SandboxCustomers', [{ customerNumber: '99999999999', type: 'private' }]);
  });

  it('a missing number or type, an empty number or an unknown type fail', () => {
    assert.deepEqual(errorsAt('SandboxCustomer', { type: 'private' }, '/customerNumber'), [['required', 'SBX-05']]);
    assert.deepEqual(errorsAt('SandboxCustomer', { customerNumber: '1' }, '/type'), [['required', 'SBX-05']]);
    assert.deepEqual(errorsAt('SandboxCustomer', { customerNumber: '', type: 'private' }, '/customerNumber'), [['minLength 1', 'SBX-05']]);
    assert.deepEqual(errorsAt('SandboxCustomer', { customerNumber: '1', type: 'business' }, '/type'), [['enum', 'SBX-05']]);
  });
});

describe('cashAccountType is an ExternalCashAccountType1 code (AIS-08, VER-15)', () => {
  it('"CACC" and the other codes pass, "ABCD" fails', () => {
    for (const code of CASH_ACCOUNT_TYPES) valid('Account', { ...account, cashAccountType: code });
    assert.deepEqual(errorsAt('Account', { ...account, cashAccountType: 'ABCD' }, '/cashAccountType'), [['enum', 'AIS-08, VER-15']]);
    assert.equal(validateAgainst('Account', { ...account, cashAccountType: 'cacc' }).valid, false);
  });

  it('the consent restriction takes the same list', () => {
    const access = (restrictedTo: string[]): unknown => ({ allPsd2: 'allAccounts', restrictedTo });
    valid('AccountAccess', access(['CACC', 'CARD']));
    assert.deepEqual(errorsAt('AccountAccess', access(['ABCD']), '/restrictedTo/0'), [['enum', 'AIS-08']]);
  });
});

describe('the scaRedirect href is written like any Link href (MSG-05)', () => {
  it('a relative address validates, a malformed one fails', () => {
    valid('ScaRedirectBody', { _links: { scaRedirect: { href: '/sca/start?session=9', verbs: ['GET'] } } });
    valid('ScaRedirectBody', { _links: { scaRedirect: { href: 'https://psd2.bank.example/sca/9', verbs: ['GET'] } } });
    const bad = errorsAt(
      'ScaRedirectBody',
      { _links: { scaRedirect: { href: 'http://exa mple.com/a b', verbs: ['GET'] } } },
      '/_links/scaRedirect/href',
    );
    assert.ok(
      bad.some(([rule]) => rule === 'format uri-reference'),
      JSON.stringify(bad),
    );
  });
});

describe('the rules of the payment request judge only the payment request (PAY-05 to PAY-11, FMT-09)', () => {
  it('amounts the bank reports pass whatever their digits or currency', () => {
    valid('Balance', { balanceType: 'closingBooked', balanceAmount: { currency: 'JPY', amount: '1500.00' } });
    valid('Fee', { currency: 'NOK', amount: '1.005' });
    valid('CardTransaction', {
      transactionAmount: { currency: 'NOK', amount: '-120.00' },
      originalAmount: { currency: 'SSP', amount: '-3000.123456' },
    });
    valid('CardTransaction', { transactionAmount: { currency: 'BYN', amount: '-12.3' } });
    valid('Account', { ...account, currency: 'BYN' });
  });

  it('they are still strings holding a decimal number, with a three-letter code (FMT-09)', () => {
    assert.deepEqual(
      errorsAt('Amount', { currency: 'NOK', amount: 12.5 }, '/amount').map(([, id]) => id),
      ['FMT-09'],
    );
    assert.deepEqual(
      errorsAt('Amount', { currency: 'NOK', amount: '1e3' }, '/amount').map(([, id]) => id),
      ['FMT-09'],
    );
    assert.deepEqual(
      errorsAt('Amount', { currency: 'nok', amount: '1' }, '/currency').map(([, id]) => id),
      ['FMT-09'],
    );
  });

  it('a fee keeps the Currency type of the response table (PAY-38)', () => {
    assert.deepEqual(
      errorsAt('Fee', { currency: 'SSP', amount: '1' }, '/currency').map(([, id]) => id),
      ['PAY-38'],
    );
  });

  it('the payment request keeps every rule of its table', () => {
    assert.deepEqual(
      errorsAt('PaymentAmount', { currency: 'JPY', amount: '1500.00' }, '/amount').map(([, id]) => id),
      ['PAY-07, LIM-17'],
    );
    assert.deepEqual(
      errorsAt('PaymentAmount', { currency: 'BYN', amount: '1.00' }, '/currency').map(([, id]) => id),
      ['PAY-10'],
    );
  });

  it('payment details are a response: account references without currency and a reported amount pass (PAY-53)', () => {
    valid('PaymentDetails', {
      debtorAccount: { iban: 'NO9386011117947' },
      instructedAmount: { currency: 'JPY', amount: '100.00' },
      creditorAccount: { iban: 'NO9386011117947' },
      creditorName: 'Kari',
      transactionStatus: 'ACSC',
    });
    assert.ok(
      errorsAt('PaymentDetails', { debtorAccount: { iban: 'NO9386011117947' } }, '/creditorName').every(([, id]) => id === 'PAY-53'),
    );
  });

  it('remittanceInformationStructured may be the 1.3.8 string or the earlier structured reference (VER-20)', () => {
    valid('TransactionBase', { transactionAmount: { currency: 'NOK', amount: '1' }, remittanceInformationStructured: 'RF18539007547034' });
    valid('TransactionBase', {
      transactionAmount: { currency: 'NOK', amount: '1' },
      remittanceInformationStructured: { reference: 'RF18539007547034', referenceType: 'SCOR' },
    });
    assert.equal(
      validateAgainst('TransactionBase', { transactionAmount: { currency: 'NOK', amount: '1' }, remittanceInformationStructured: 7 }).valid,
      false,
    );
  });
});

describe('message codes: the specification list, RESOURCE_BLOCKED included (MSG-02, ERR-43)', () => {
  it('RESOURCE_BLOCKED passes in a tppMessage and in an error body', () => {
    valid('TppMessage', { category: 'ERROR', code: 'RESOURCE_BLOCKED' });
    valid('ErrorBody', { id: 'e', system: 's', status: 400, code: 'RESOURCE_BLOCKED' });
  });

  it('a Berlin Group code outside the list fails in both', () => {
    assert.deepEqual(errorsAt('TppMessage', { category: 'ERROR', code: 'SIGNATURE_INVALID' }, '/code'), [['enum', 'MSG-02']]);
    assert.deepEqual(errorsAt('ErrorBody', { id: 'e', system: 's', status: 400, code: 'SIGNATURE_MISSING' }, '/code'), [
      ['enum', 'ERR-43'],
    ]);
  });
});

describe('links: verbs as the specification types them (MSG-06, MSG-07, MSG-09)', () => {
  it('a Link needs verbs but no minimum number of them', () => {
    valid('Link', { href: '/v1/x', verbs: [] });
    assert.deepEqual(errorsAt('Link', { href: '/v1/x' }, '/verbs'), [['required', 'MSG-06']]);
    assert.deepEqual(errorsAt('Link', { href: '/v1/x', verbs: ['PATCH'] }, '/verbs/0'), [['enum', 'MSG-06']]);
  });

  it('a 401 asking for SCA keeps the Berlin Group link, except at the basket authorisation, whose _links the spec types (MSG-07)', () => {
    valid('ScaRedirectBody', { _links: { scaRedirect: { href: 'https://psd2.bank.example/sca/1' } } });
    assert.deepEqual(
      errorsAt('ScaRedirectBody', { _links: { scaRedirect: { href: '/sca/1', verbs: ['PATCH'] } } }, '/_links/scaRedirect/verbs/0'),
      [['enum', 'MSG-09']],
    );
    assert.deepEqual(
      errorsAt('SigningBasketScaRedirectBody', { _links: { scaRedirect: { href: '/sca/1' } } }, '/_links/scaRedirect/verbs'),
      [['required', 'MSG-06']],
    );
  });

  it('the payment initiation response keeps the Link; Berlin Group shaped resources take href-only links', () => {
    const response = EXAMPLES.PaymentInitiationResponse as Record<string, unknown>;
    assert.equal(validateAgainst('PaymentInitiationResponse', { ...response, _links: { self: { href: '/v1/p/1' } } }).valid, false);
    valid('Account', { ...account, _links: { balances: { href: '/v1/accounts/1/balances' } } });
    valid('SigningBasket', { transactionStatus: 'RCVD', _links: { status: { href: '/v1/signing-baskets/1/status' } } });
    assert.deepEqual(errorsAt('Account', { ...account, _links: { balances: { verbs: ['GET'] } } }, '/_links/balances/href'), [
      ['required', 'MSG-05'],
    ]);
  });

  it('a pagination link without verbs passes; one listing verbs lists GET (PAG-04)', () => {
    valid('PaginationLink', { href: '/v1/accounts/1/transactions?limit=200&offset=200' });
    assert.deepEqual(errorsAt('PaginationLink', { href: '/x', verbs: ['POST'] }, '/verbs'), [['contains', 'PAG-04']]);
  });
});

describe('no invented minimum of bulk payments (PAY-45)', () => {
  it('an empty payments array breaks only PAY-51, a SHOULD: nothing the Berlin Group demands', () => {
    const bulk = EXAMPLES.BulkPaymentInitiationRequest as Record<string, unknown>;
    assert.deepEqual(errorsAt('BulkPaymentInitiationRequest', { ...bulk, payments: [] }, '/payments'), [['minItems 1', 'PAY-51']]);
    assert.equal(byLevel('PAY-51'), 'SHOULD');
  });
});
