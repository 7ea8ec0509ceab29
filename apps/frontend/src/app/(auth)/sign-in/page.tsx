import type { Metadata } from 'next';
import { SignInView } from '@/components/auth/sign-in-view';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next, error } = await searchParams;
  return <SignInView next={typeof next === 'string' ? next : undefined} ssoError={typeof error === 'string' ? error : undefined} />;
}
