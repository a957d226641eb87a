/**
 * PSU identifiers, psu-id: "unique per TPP and bank pair". The same PSU authorises two TPPs (two certificates,
 * capability second-tpp): each gets a psu-id of its own, and one TPP's psu-id names nobody for the other.
 */
import { notTestable, PrerequisiteUnmet, psuIdFrom, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';

/** The target's second TPP certificate (capability second-tpp). */
const SECOND_PROFILE = 'second';

test(
  ...scenario(
    'PSU-02.a',
    "the same PSU gets different psu-ids at two TPPs, and one TPP's psu-id gives the other nothing",
    { checks: ['PSU-02', 'PSU-06'], needs: ['second-tpp'], ownPsu: true },
    async ({ newTpp, sca, paths, check, ownPsu, target }) => {
      // A PSU both TPPs know: a bank may keep a sandbox world per TPP, where a PSU made through one TPP's sandbox is
      // that TPP's alone; the target's isolated PSU (psus.isolated, of its known state) is every TPP's.
      const known = target.psus.isolated;
      const psu = known ?? (await ownPsu());
      const consentAt = async (profile?: string) => {
        const tpp = newTpp(profile === undefined ? {} : { profile });
        const redirect = await sca.attempt(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
        if (redirect.outcome === 'refused') {
          if (known === undefined && profile !== undefined) {
            notTestable(
              `the second TPP's SCA does not know the PSU made through the first TPP's sandbox (${redirect.reason}): a bank may keep a sandbox world per TPP; target "${target.name}" declares no psus.isolated, a PSU of its known state that every TPP knows`,
            );
          }
          throw new PrerequisiteUnmet(`the SCA of the PSU did not go through: ${redirect.reason}`);
        }
        return { tpp, psuId: psuIdFrom(redirect), url: redirect.url };
      };
      // The other TPP first: a bank with one id per PSU would then hand this TPP the id it already gave out.
      const other = await consentAt(SECOND_PROFILE);
      const own = await consentAt();
      const differ = check.that('PSU-02', own.psuId !== other.psuId, {
        expected: 'a psu-id from each TPP, different from each other',
        actual: `${own.url} and ${other.url}`,
      });
      // This TPP holds a consent of the same PSU: only the psu-id tells the bank whom the other TPP's id names.
      const response = await own.tpp.get(paths('accounts'), { headers: { 'PSU-ID': other.psuId }, deliberate: "another TPP's psu-id" });
      check.status('PSU-06', response, { after: differ });
    },
  ),
);
