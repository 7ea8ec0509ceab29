import { toast } from 'sonner';
import { api } from './api-client';

/** Ends the session on the server, then starts over at sign-in (nothing of the old session stays in memory). */
export async function signOut(): Promise<void> {
  try {
    await api.auth.signOut();
  } catch (err) {
    toast.error(`Could not sign out: ${(err as Error).message}`);
    return;
  }
  window.location.assign('/sign-in');
}
