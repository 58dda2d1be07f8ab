package tally.attribution

import org.apache.spark.sql.expressions.Window
import org.apache.spark.sql.functions._
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.slf4j.LoggerFactory
import tally.schema.{Cols, PixelSchema}

/**
 * Reads yesterday's conversion pixels directly from the topic so attribution
 * doesn't have to wait for the bronze compaction to finish (~2h saved).
 */
object ConversionsBatch {
  private val log = LoggerFactory.getLogger(getClass)

  def load(spark: SparkSession, bootstrap: String, runDate: String, salt: String): DataFrame = {
    val raw = spark.read
      .format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", "pixel.conversions.v2")
      .option("startingOffsetsByTimestampStrategy", "latest")
      .option("startingTimestamp", s"${java.time.LocalDate.parse(runDate).atStartOfDay(java.time.ZoneOffset.UTC).toInstant.toEpochMilli}")
      .load()

    val parsed = raw
      .select(from_json(col("value").cast("string"), PixelSchema.conversion).as(Cols.Payload))
      .select(s"${Cols.Payload}.*")
      .where(to_date(col(Cols.EventTs)) === lit(runDate))

    parsed
      .where(col(Cols.UserKey).isNull)
      .select(col(Cols.Ip), col(Cols.AdvertiserId))
      .limit(20)
      .collect()
      .foreach { r =>
        log.warn(s"conversion without user key from ip=${r.getString(0)} advertiser=${r.getLong(1)}")
      }

    val latestFirst = Window
      .partitionBy(col(Cols.AdvertiserId), col(Cols.OrderId))
      .orderBy(col(Cols.EventTs).desc)

    parsed
      .withColumn(Cols.Rank, row_number().over(latestFirst))
      .where(col(Cols.Rank) === 1)
      .drop(Cols.Rank)
      .withColumn(Cols.IpHash, sha2(concat(col(Cols.Ip), lit(salt)), 256))
      .drop(Cols.Ip)
  }
}
