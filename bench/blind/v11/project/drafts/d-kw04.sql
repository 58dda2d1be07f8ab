CREATE TABLE `kiln_maintenance` (
  `id` int AUTO_INCREMENT NOT NULL,
  `kiln_id` int NOT NULL,
  `kind` enum('elements','thermocouple','relay','other') NOT NULL,
  `done_on` date NOT NULL,
  `thermocouple_offset_c` int NOT NULL DEFAULT 0,
  `max_temp_f` int,
  `notes` varchar(500),
  CONSTRAINT `kiln_maintenance_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `kiln_maintenance` ADD CONSTRAINT `kiln_maintenance_kiln_id_kilns_id_fk` FOREIGN KEY (`kiln_id`) REFERENCES `kilns`(`id`) ON DELETE no action ON UPDATE no action;
