import { Router } from "express";
import Joi from "joi";
import rateLimit from "express-rate-limit";
import { CoreLedgerClient } from "@pennywise/core-ledger-sdk";

const transferSchema = Joi.object({
  fromAccountId: Joi.string().uuid().required(),
  toIban: Joi.string().max(34).required(),
  amountMinor: Joi.number().integer().positive().required(),
  currency: Joi.string().length(3).required(),
});

const ledger = new CoreLedgerClient({ baseUrl: process.env.CORE_LEDGER_URL! });

export const transfers = Router();

transfers.post(
  "/transfers",
  rateLimit({ windowMs: 60_000, max: 10, keyGenerator: (req) => req.user!.id }),
  async (req, res) => {
    const { error, value } = transferSchema.validate(req.body);
    if (error) return res.status(400).json({ error: error.message });
    const result = await ledger.postTransfer({ ...value, userId: req.user!.id });
    req.log.info({ transferId: result.id, userId: req.user!.id }, "transfer accepted");
    return res.status(202).json({ id: result.id, status: result.status });
  },
);
