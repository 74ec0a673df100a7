import { accountMessages } from '@ppr/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { assertAcceptablePassword, passwordProblem, REFUSED_COMMON_PASSWORDS } from './passwords';

const owner = { username: 'ana_ruiz', email: 'Ana.Ruiz@BethesdaTax.example' };

describe('password rules (finding 10)', () => {
  it.each(['123456', 'password', 'qwerty', '12345678', 'letmein', 'iloveyou', 'Password', ' PASSWORD ', 'trustno1'])(
    'refuses the common password %j',
    (password) => {
      expect(passwordProblem(password, owner)).toBe(accountMessages.passwordTooCommon);
    },
  );

  it('refuses every one of the 10,000 most common passwords of the maintained list, and only those', () => {
    const ranked = dictionary['passwords-common'];
    expect(ranked.length).toBeGreaterThan(REFUSED_COMMON_PASSWORDS);
    const refused = ranked.slice(0, REFUSED_COMMON_PASSWORDS).filter((p) => passwordProblem(p, owner) !== null);
    expect(refused).toHaveLength(REFUSED_COMMON_PASSWORDS);
    // Past the first 10,000 the list is not applied (a longer list refuses too many ordinary passphrases).
    const later = ranked
      .slice(REFUSED_COMMON_PASSWORDS, REFUSED_COMMON_PASSWORDS + 200)
      .filter((p) => p.length >= 6 && new Set(p).size > 1);
    expect(later.filter((p) => passwordProblem(p, owner) !== null)).toEqual([]);
  });

  it("refuses for an admin account every password of the whole list (admin123 is number 12,412), which a customer's may be", () => {
    const ranked = dictionary['passwords-common'];
    expect(ranked.indexOf('admin123')).toBeGreaterThan(REFUSED_COMMON_PASSWORDS);
    expect(passwordProblem('admin123', owner)).toBeNull();
    expect(passwordProblem('admin123', owner, 'admin')).toBe(accountMessages.passwordTooCommon);
    expect(passwordProblem(' Admin123 ', owner, 'admin')).toBe(accountMessages.passwordTooCommon);
    const accepted = ranked.filter((p) => p.length >= 6 && new Set(p).size > 1 && passwordProblem(p, owner, 'admin') === null);
    expect(accepted).toEqual([]);
    for (const password of ['correct horse 1', 'Bethesda tax 2026!', 'x9!vq-llama'])
      expect(passwordProblem(password, owner, 'admin')).toBeNull();
  });

  it.each(['      ', '\t\t\t\t\t\t', ' \t  \t ', 'aaaaaaaa', '0000000000'])('refuses %j (blank or one character repeated)', (password) => {
    expect(passwordProblem(password, owner)).toBe(accountMessages.passwordOneCharacter);
  });

  it.each(['ana_ruiz', 'ANA_RUIZ', ' ana_ruiz ', 'ana.ruiz@bethesdatax.example', 'ana.ruiz'])(
    "refuses the owner's own name or address %j",
    (password) => {
      expect(passwordProblem(password, owner)).toBe(accountMessages.passwordIsIdentity);
    },
  );

  it.each(['correct horse 1', 'Bethesda tax 2026!', 'ana_ruiz_2026x', 'x9!vq-llama'])('accepts %j', (password) => {
    expect(passwordProblem(password, owner)).toBeNull();
  });

  it('throws a 400 in the API error shape naming the field', () => {
    let caught: unknown;
    try {
      assertAcceptablePassword('123456', owner, 'newPassword');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({
      status: 400,
      response: {
        message: accountMessages.passwordTooCommon,
        errors: [{ path: 'newPassword', message: accountMessages.passwordTooCommon }],
      },
    });
  });
});
