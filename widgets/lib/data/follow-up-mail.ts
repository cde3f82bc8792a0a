/**
 * Her morning mail of the leads to follow up (docs/agent-area.md "Her morning mail"): her choice,
 * saved through the data API with her session (public.set_my_follow_up_mail; public.my_role says
 * it when the area opens).
 */
import type { Session } from '@supabase/auth-js';
import type { ApiConfig } from '../config.ts';
import { restAs } from './agent-area.ts';
import { answer } from './client.ts';

/** Saves her choice; what the database kept. */
export async function setFollowUpMail(config: ApiConfig, session: Session, wanted: boolean): Promise<boolean> {
  return (await answer(restAs(config, session).rpc('set_my_follow_up_mail', { wanted }), 'the morning mail')) === true;
}
