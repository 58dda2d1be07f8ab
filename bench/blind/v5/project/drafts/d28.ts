import { create } from "zustand";
import { configureStore, createSlice, PayloadAction } from "@reduxjs/toolkit";

// Badge count shared by the tab bar and the inbox screen.

type BadgeState = { unread: number };

const badgeSlice = createSlice({
  name: "badge",
  initialState: { unread: 0 } as BadgeState,
  reducers: {
    setUnread(state, action: PayloadAction<number>) {
      state.unread = Math.max(0, action.payload);
    },
    markRead(state, action: PayloadAction<number>) {
      state.unread = Math.max(0, state.unread - action.payload);
    },
  },
});

export const { setUnread, markRead } = badgeSlice.actions;

export const badgeStore = configureStore({ reducer: { badge: badgeSlice.reducer } });

type UiState = { inboxOpen: boolean; setInboxOpen: (open: boolean) => void };

export const useUi = create<UiState>((set) => ({
  inboxOpen: false,
  setInboxOpen: (open) => set({ inboxOpen: open }),
}));

export function selectUnread(state: ReturnType<typeof badgeStore.getState>): number {
  return state.badge.unread;
}
