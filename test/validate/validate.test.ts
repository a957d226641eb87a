/**
 * lib/validate: the one AJV instance (strict, lazy, cached), readable errors (pointer, rule, value
 * found, requirement id, one line of text) and warnings for unknown and deprecated properties.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failedRequirements, formatErrors, getAjv, validateAgainst, validatorFor, verdictsAgainst } from '../../lib/validate/index.js';
import { EXAMPLES } from './fixtures/schema-examples.js';

const payment = EXAMPLES.PaymentInitiationRequest as Record<string, unknown>;

describe('the AJV instance', () => {
  it('is one instance, compiled lazily and cached', () => {
    assert.equal(getAjv(), getAjv());
    assert.equal(validatorFor('PaymentInitiationRequest'), validatorFor('PaymentInitiationRequest'));
  });

  it('is strict: an unknown keyword in a schema is refused', () => {
    assert.throws(() => getAjv().compile({ type: 'string', maxLenght: 3 }), /strict mode: unknown keyword/);
  });

  it('knows the x-requirement annotation and the amountMatchesCurrency keyword', () => {
    const validate = getAjv().compile({
      type: 'object',
      'x-requirement': 'PAY-07',
      amountMatchesCurrency: true,
      properties: { amount: { type: 'string' }, currency: { type: 'string' } },
    });
    assert.equal(validate({ amount: '1.5', currency: 'JPY' }), false);
    assert.equal(validate({ amount: '1', currency: 'JPY' }), true);
    assert.throws(() => getAjv().compile({ type: 'object', amountMatchesCurrency: 'sometimes' }));
    assert.throws(() => getAjv().compile({ type: 'string', 'x-requirement': 5 }));
  });
});

describe('readable errors', () => {
  it('reads as one line: pointer, rule, requirement, value found', () => {
    const result = validateAgainst('PaymentInitiationRequest', { ...payment, creditorName: 'x'.repeat(71) });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors, [
      {
        pointer: '/creditorName',
        rule: 'maxLength 70',
        found: 'x'.repeat(71),
        requirement: 'PAY-14, LIM-10',
        message: '/creditorName: at most 70 characters (PAY-14, LIM-10), found 71 characters',
      },
    ]);
  });

  it('points a missing property at where it should be', () => {
    const { creditorName: _, ...withoutName } = payment;
    const [error] = validateAgainst('PaymentInitiationRequest', withoutName).errors;
    assert.equal(error?.message, '/creditorName: is required (PAY-13), found nothing');
    assert.equal(error?.found, undefined);
  });

  it('names the requirement of the place of use for a shared schema (debtor vs creditor currency)', () => {
    const result = validateAgainst('PaymentInitiationRequest', {
      ...payment,
      creditorAccount: { iban: 'DE89370400440532013000', currency: 'XYZ' },
      debtorAccount: { iban: 'NO9386011117947' },
    });
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        `/creditorAccount/currency: a currency code of the specification's currency list (PAY-19), found "XYZ"`,
        '/debtorAccount/currency: is required (PAY-30), found nothing',
      ],
    );
  });

  it('reports the amount rule on the amount, with the currency minor units', () => {
    const result = validateAgainst('PaymentInitiationRequest', { ...payment, instructedAmount: { currency: 'JPY', amount: '100.5' } });
    assert.deepEqual(
      result.errors.map((e) => [e.pointer, e.rule, e.found, e.requirement]),
      [['/instructedAmount/amount', 'amountMatchesCurrency at-most', '100.5', 'PAY-07, LIM-17']],
    );
    assert.equal(
      result.errors[0]?.message,
      '/instructedAmount/amount: at most 0 fraction digits for JPY (ISO 4217 minor units 0) (PAY-07, LIM-17), found "100.5" (1 fraction digit)',
    );
  });

  it('reports an amount sent as a number (amount-as-string)', () => {
    const result = validateAgainst('PaymentInitiationRequest', { ...payment, instructedAmount: { currency: 'EUR', amount: 10.5 } });
    assert.deepEqual(
      result.errors.map((e) => e.message),
      ['/instructedAmount/amount: of type string (PAY-04, FMT-10), found number 10.5'],
    );
  });

  it('describes patterns in words', () => {
    const result = validateAgainst('PaymentInitiationRequest', { ...payment, instructedAmount: { currency: 'EUR', amount: '1e5' } });
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        '/instructedAmount/amount: a decimal number with a dot separator and an optional leading minus (no exponent, comma, space or plus) (PAY-09), found "1e5"',
      ],
    );
  });

  it('leaves zero and negative payment amounts to the SHOULD-level check PAY-48', () => {
    for (const amount of ['0', '0.00', '-10.00']) {
      const result = validateAgainst('PaymentInitiationRequest', { ...payment, instructedAmount: { currency: 'EUR', amount } });
      assert.equal(result.valid, true, `${amount}: ${formatErrors(result.errors)}`);
    }
  });

  it('names the Berlin Group shape requirement for periodic payment fields', () => {
    const periodic = EXAMPLES.PeriodicPaymentInitiationRequest as Record<string, unknown>;
    const result = validateAgainst('PeriodicPaymentInitiationRequest', { ...periodic, frequency: 'Fortnightly' });
    const error = result.errors.find((e) => e.pointer === '/frequency');
    assert.equal(error?.requirement, 'PAY-44');
    assert.match(error?.message ?? '', /^\/frequency: one of Daily, .* \(PAY-44\), found "Fortnightly"$/);
  });

  it('checks the conditional rule: corporate context needs psu-corporate-id (EVT-04); private context may carry one (EVT-05 is a SHOULD)', () => {
    const id = '3dc3d5b3-7023-4848-9853-f5400a64e80f';
    assert.deepEqual(
      validateAgainst('RedirectSuccessQuery', { 'psu-id': id, 'tpp-session-id': 's', context: 'CORPORATE' }).errors.map((e) => e.message),
      ['/psu-corporate-id: is required (EVT-04), found nothing'],
    );
    assert.equal(
      validateAgainst('RedirectSuccessQuery', { 'psu-id': id, 'psu-corporate-id': id, 'tpp-session-id': 's', context: 'PRIVATE' }).valid,
      true,
    );
  });

  it('checks the failed-SCA redirect: system required for a server error (EVT-08)', () => {
    assert.deepEqual(
      validateAgainst('RedirectFailureQuery', { status: '500', code: 'SYSTEM_ERROR', message: 'x' }).errors.map((e) => e.message),
      ['/system: is required (EVT-08), found nothing'],
    );
    assert.equal(validateAgainst('RedirectFailureQuery', { status: '401', code: 'SCA_INVALID', message: 'x' }).valid, true);
    assert.equal(validateAgainst('RedirectFailureQuery', { status: 401, code: 'SCA_INVALID', message: 'x' }).valid, false);
  });

  it('checks the structured-address rule (ADR-03, ADR-05, ADR-06); city stands in for townName', () => {
    const base = { ...payment, creditorAgent: undefined, creditorAddress: { country: 'NO' } };
    delete base.creditorAgent;
    assert.deepEqual(
      validateAgainst('PaymentInitiationRequestStructuredAddress', base).errors.map((e) => e.message),
      ['/creditorAgent: is required (ADR-03), found nothing', '/creditorAddress/townName: is required (ADR-05), found nothing'],
    );
    const withCity = { ...payment, creditorAddress: { city: 'Oslo', country: 'NO' } };
    assert.equal(validateAgainst('PaymentInitiationRequestStructuredAddress', withCity).valid, true);
    assert.equal(validateAgainst('PaymentInitiationRequest', { ...payment, creditorAddress: undefined }).valid, true);
  });

  it('rejects duplicate months of a MonthlyVariable periodic payment (ERR-42)', () => {
    const periodic = EXAMPLES.PeriodicPaymentInitiationRequest as Record<string, unknown>;
    const result = validateAgainst('PeriodicPaymentInitiationRequest', { ...periodic, monthsOfExecution: ['1', '4', '4'] });
    assert.deepEqual(
      result.errors.map((e) => [e.pointer, e.rule, e.requirement]),
      [['/monthsOfExecution', 'uniqueItems', 'ERR-42']],
    );
  });

  it('requires a transactionId on booked transactions only (AIS-03), and arrays of remittance text in lists (AIS-06)', () => {
    const result = validateAgainst('TransactionsResponse', {
      transactions: {
        booked: [{ transactionAmount: { currency: 'NOK', amount: '1' }, remittanceInformationUnstructured: 'text' }],
        pending: [{ transactionAmount: { currency: 'NOK', amount: '1' } }],
        _links: { account: { href: '/v1/accounts/1', verbs: ['GET'] } },
      },
    });
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        '/transactions/booked/0/remittanceInformationUnstructured: of type array (AIS-06), found string "text"',
        '/transactions/booked/0/transactionId: is required (AIS-03), found nothing',
      ],
    );
  });

  it('formatErrors gives one line per error', () => {
    const { errors } = validateAgainst('ErrorBody', { id: 'e', system: 's', status: 'x', code: 'bad code' });
    assert.equal(formatErrors(errors).split('\n').length, errors.length);
    assert.ok(errors.every((e) => e.requirement !== undefined));
  });
});

describe('verdicts by requirement', () => {
  it('each error goes to every requirement its rule names; a valid body fails none and passes those it exercised', () => {
    const failed = failedRequirements('PaymentInitiationRequest', { ...payment, creditorName: 'x'.repeat(71) });
    assert.deepEqual([...failed.keys()].sort(), ['LIM-10', 'PAY-14']);
    assert.equal(failed.get('PAY-14')?.[0]?.pointer, '/creditorName');
    assert.deepEqual(verdictsAgainst('PaymentInitiationRequest', { ...payment, creditorName: 'x'.repeat(71) }).failed, failed);
    const valid = verdictsAgainst('PaymentInitiationRequest', payment);
    assert.equal(valid.failed.size, 0);
    assert.ok(valid.passed.has('PAY-14') && valid.passed.has('PAY-13'));
    assert.equal(failedRequirements('PaymentInitiationRequest', payment).size, 0);
  });
});

describe('warnings', () => {
  it('reports unknown properties as warnings, never as failures', () => {
    const result = validateAgainst('PaymentInitiationResponse', {
      paymentId: 'p',
      transactionStatus: 'RCVD',
      proprietaryFlag: true,
      _links: { self: { href: '/x', verbs: ['GET'], title: 'extra' } },
    });
    assert.equal(result.valid, true);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.warnings.map((w) => [w.pointer, w.rule]),
      [
        ['/proprietaryFlag', 'unknown property'],
        ['/_links/self/title', 'unknown property'],
      ],
    );
    assert.equal(
      result.warnings[0]?.message,
      '/proprietaryFlag: a property the schema PaymentInitiationResponse does not describe (warning), found true',
    );
  });

  it('does not warn about names that maps and patterns allow', () => {
    const result = validateAgainst('TransactionsResponse', EXAMPLES.TransactionsResponse);
    assert.deepEqual(result.warnings, []);
  });

  it('warns about a deprecated property (Address.city, PAY-23)', () => {
    const result = validateAgainst('Address', { city: 'Oslo', country: 'NO' });
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.warnings.map((w) => [w.pointer, w.rule, w.requirement]),
      [['/city', 'deprecated property', 'PAY-23']],
    );
  });

  it('warns about Berlin Group names the specification does not use (streetName, postCode)', () => {
    const result = validateAgainst('Address', { streetName: 'Storgata', postCode: '0155', townName: 'Oslo', country: 'NO' });
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.warnings.map((w) => w.pointer),
      ['/streetName', '/postCode'],
    );
  });
});
