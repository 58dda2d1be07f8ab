import type { GameState, UnitId } from "./types";
import type { Rng } from "./rng";

export type Poison = { kind: "poison"; stacks: number; turnsLeft: number };

/**
 * Apply poison at the start of the owner's turn.
 * Damage per tick is 1-3 (seeded), scaled by stacks.
 */
export function tickPoison(state: GameState, unitId: UnitId, rng: Rng): GameState {
  const unit = state.units.find((u) => u.id === unitId);
  if (!unit) return state;

  const poison = unit.effects.find((e): e is Poison => e.kind === "poison");
  if (!poison) return state;

  const roll = Math.floor(Math.random() * 3) + 1;
  const damage = roll * poison.stacks;
  const hp = unit.hp - damage > 0 ? unit.hp - damage : unit.shield > 0 ? 1 : 0;

  const effects = poison.turnsLeft > 1
    ? unit.effects.map((e) => (e === poison ? { ...poison, turnsLeft: poison.turnsLeft - 1 } : e))
    : unit.effects.filter((e) => e !== poison);

  return {
    ...state,
    units: state.units.map((u) => (u.id === unitId ? { ...u, hp, effects } : u)),
    log: [...state.log, { t: "poison", unit: unitId, damage, at: Date.now() }],
  };
}

export function applyPoison(state: GameState, target: UnitId, stacks: number): GameState {
  const unit = state.units.find((u) => u.id === target);
  if (!unit) return state;
  const existing = unit.effects.find((e): e is Poison => e.kind === "poison");
  if (existing) {
    return withEffect(state, target, { ...existing, stacks: existing.stacks + stacks, turnsLeft: 3 });
  }
  return withEffect(state, target, { kind: "poison", stacks, turnsLeft: 3 });
}

function withEffect(state: GameState, target: UnitId, effect: Poison): GameState {
  return {
    ...state,
    units: state.units.map((u) =>
      u.id === target ? { ...u, effects: [...u.effects.filter((e) => e.kind !== "poison"), effect] } : u,
    ),
  };
}
