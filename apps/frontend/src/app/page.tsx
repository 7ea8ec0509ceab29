import { HomeRedirect } from '@/components/workspaces/home-redirect';

/** `/` opens the signed-in person's first workspace (the proxy sends visitors without a session to sign in). */
export default function Home() {
  return <HomeRedirect />;
}
