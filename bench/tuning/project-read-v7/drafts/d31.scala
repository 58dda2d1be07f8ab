package tally.attribution

import java.sql.Timestamp

import org.apache.spark.sql.functions._
import org.apache.spark.sql.{SaveMode, SparkSession}
import tally.io.Tables

final case class Touch(userKey: String, advertiserId: Long, campaignId: Long, touchType: String, ts: Timestamp)
final case class Conversion(userKey: String, advertiserId: Long, orderId: String, revenueMicros: Long, ts: Timestamp)
final case class Attributed(advertiserId: Long, orderId: String, campaignId: Long, touchType: String,
                            revenueMicros: Long, conversionTs: Timestamp)

object AttributionJob {
  val ClickLookbackMs: Long = 7L * 24 * 60 * 60 * 1000
  val ViewLookbackMs: Long = 1L * 24 * 60 * 60 * 1000

  def main(args: Array[String]): Unit = {
    val runDate = args.headOption.getOrElse(sys.error("usage: AttributionJob <yyyy-MM-dd>"))
    val spark = SparkSession.builder()
      .appName(s"attribution-$runDate")
      .config("spark.sql.session.timeZone", "UTC")
      .getOrCreate()
    import spark.implicits._

    val touches = Tables.touches(spark)
      .where(col("event_date").between(date_sub(lit(runDate), 15), lit(runDate)))
      .select(col("user_key").as("userKey"), col("advertiser_id").as("advertiserId"),
        col("campaign_id").as("campaignId"), col("touch_type").as("touchType"), col("event_ts").as("ts"))
      .as[Touch]

    val conversions = Tables.conversions(spark)
      .where(col("event_date") === lit(runDate))
      .select(col("user_key").as("userKey"), col("advertiser_id").as("advertiserId"),
        col("order_id").as("orderId"), col("revenue_micros").as("revenueMicros"), col("event_ts").as("ts"))
      .as[Conversion]

    val attributed = touches
      .groupByKey(_.userKey)
      .cogroup(conversions.groupByKey(_.userKey)) { (_, userTouches, userConversions) =>
        val sorted = userTouches.toVector.sortBy(_.ts.getTime)
        userConversions.flatMap(c => lastTouch(sorted, c))
      }

    attributed.toDF("advertiser_id", "order_id", "campaign_id", "touch_type", "revenue_micros", "conversion_ts")
      .withColumn("event_date", to_date(col("conversion_ts")))
      .write
      .format("delta")
      .mode(SaveMode.Overwrite)
      .option("replaceWhere", s"event_date = '$runDate'")
      .partitionBy("event_date", "advertiser_id")
      .saveAsTable("attributed_conversions")
  }

  private def lastTouch(sorted: Vector[Touch], c: Conversion): Option[Attributed] = {
    val eligible = sorted.filter { t =>
      val age = c.ts.getTime - t.ts.getTime
      t.advertiserId == c.advertiserId && age >= 0 &&
        ((t.touchType == "click" && age <= ClickLookbackMs) || (t.touchType == "view" && age <= ViewLookbackMs))
    }
    val clicks = eligible.filter(_.touchType == "click")
    val winner = if (clicks.nonEmpty) clicks.lastOption else eligible.lastOption
    winner.map(t => Attributed(c.advertiserId, c.orderId, t.campaignId, t.touchType, c.revenueMicros, c.ts))
  }
}
