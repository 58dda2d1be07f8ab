import { FastifyInstance } from "fastify";
import { loadLayerSql } from "../layers";
import { pool } from "../db";

export default async function tiles(app: FastifyInstance) {
  const layers = await loadLayerSql("sql/layers");
  app.get("/tiles/:layer/:z/:x/:y.mvt", async (req, reply) => {
    const { layer, z, x, y } = req.params as Record<string, string>;
    const sql = layers.get(layer);
    if (!sql) return reply.code(404).send();
    const { rows } = await pool.query(sql, [Number(z), Number(x), Number(y)]);
    reply.header("Content-Type", "application/vnd.mapbox-vector-tile");
    reply.header("Cache-Control", "public, max-age=86400");
    return rows[0]?.mvt ?? Buffer.alloc(0);
  });
}
