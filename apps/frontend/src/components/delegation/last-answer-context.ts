'use client';

import { createContext, useContext } from 'react';

/**
 * Set by a message of the live chat around its parts: whether it is the chat's newest message
 * (only that answer's delegations can be retried) and which agent wrote it.
 */
export interface AnswerPlace {
  isLast: boolean;
  agentId?: string;
}

export const AnswerPlaceContext = createContext<AnswerPlace>({ isLast: false });

export const useAnswerPlace = () => useContext(AnswerPlaceContext);
