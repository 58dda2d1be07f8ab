-- sql/layers/protected-structures.sql
WITH bounds AS (SELECT ST_TileEnvelope($1, $2, $3) AS env)
SELECT ST_AsMVT(t, 'protected-structures', 4096, 'geom') AS mvt FROM (
  SELECT s.id, s.rps_no, s.name_ga, s.name_en,
         ST_AsMVTGeom(ST_Transform(s.geom, 3857), bounds.env, 4096, 16, true) AS geom
  FROM protected_structures s, bounds
  WHERE ST_Intersects(ST_Transform(s.geom, 3857), bounds.env)
) t;
