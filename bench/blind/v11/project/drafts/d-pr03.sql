-- 0031_inserts.sql  loose inserts (leaflets) booked per edition
CREATE TABLE bookings_insert (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  edition_id    BIGINT UNSIGNED NOT NULL,
  advertiser_id BIGINT UNSIGNED NOT NULL,
  width_mm      INT UNSIGNED NOT NULL,
  height_cm     DECIMAL(5,1) NOT NULL,
  copies        INT UNSIGNED NOT NULL,
  price         DOUBLE NOT NULL,
  created_at    DATETIME(6) NOT NULL,
  CONSTRAINT fk_insert_edition FOREIGN KEY (edition_id) REFERENCES layout_edition (id),
  CONSTRAINT fk_insert_adv FOREIGN KEY (advertiser_id) REFERENCES ads_advertiser (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
