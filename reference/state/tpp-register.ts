// The bank's copy of the TPP register (Authentication 2: "the registration is checked against
// central registries"). In production the copy follows the national registers and the EBA's; in
// this sandbox every TPP holding an acceptable certificate counts as authorised, and the tester can
// withdraw and restore the calling TPP's own authorisation (capability tpp-register), as the
// competent authority would, to see that the bank consults its copy on every request.

export class TppRegister {
  /** organizationIdentifiers whose authorisation is withdrawn. */
  private readonly withdrawn = new Set<string>();

  withdraw(tppId: string): void {
    this.withdrawn.add(tppId);
  }

  restore(tppId: string): void {
    this.withdrawn.delete(tppId);
  }

  isAuthorised(tppId: string): boolean {
    return !this.withdrawn.has(tppId);
  }

  clear(): void {
    this.withdrawn.clear();
  }
}
