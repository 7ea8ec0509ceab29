import { expect, it } from 'vitest';
import { checkAccountForm } from './account-form-values';

const valid = { name: 'Ada', email: ' ada@example.com ', password: 'correct horse', confirm: 'correct horse' };

it('says everything that is wrong at once: a short password and an empty confirmation', () => {
  const checked = checkAccountForm({ ...valid, password: 'short', confirm: '' });
  expect(checked).toEqual({ errors: { fields: { password: 'Password must be at least 8 characters', confirm: 'Type the password again' } } });
});

it('names a mismatch even when the password itself is also too short', () => {
  const checked = checkAccountForm({ ...valid, name: '', password: 'short', confirm: 'shorter' });
  expect('errors' in checked && checked.errors.fields).toEqual({
    name: expect.stringMatching(/^Name /),
    password: 'Password must be at least 8 characters',
    confirm: 'The two passwords are not the same',
  });
});

it('gives the request to send when all is well (email trimmed, confirmation not sent)', () => {
  expect(checkAccountForm(valid, 'tok')).toEqual({ request: { name: 'Ada', email: 'ada@example.com', password: 'correct horse', inviteToken: 'tok' } });
});
