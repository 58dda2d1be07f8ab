import axios from "axios";
import { defineStore } from "pinia";
import type { Glaze } from "@kilnware/shared/schemas";

export const useGlazes = defineStore("glazes", {
  state: () => ({ items: [] as Glaze[], query: "" }),
  getters: {
    filtered: (s) => s.items.filter((g) => g.name.toLowerCase().includes(s.query.toLowerCase())),
    lowStock: (s) => s.items.filter((g) => g.stockG < 1000),
  },
  actions: {
    async load() {
      const { data } = await axios.get("/api/glazes");
      this.items = data;
    },
  },
});
