import { DEFAULT_WORKSPACE_ID } from '@baton/schemas';
import { redirect } from 'next/navigation';

/** `/` is the default workspace's new-chat page. */
export default function Home() {
  redirect(`/w/${DEFAULT_WORKSPACE_ID}`);
}
