package tally.attribution

import org.apache.spark.sql.Dataset
import org.apache.spark.sql.expressions.Window
import org.apache.spark.sql.functions._
import tally.schema.{AttributedRow, Cols, ConversionRow, TouchRow}

object LastTouch {

  /** Lookbacks in seconds: clicks 14 days, views 1 day (contract terms since November). */
  val ClickLookbackSeconds: Long = 1209600L
  val ViewLookbackSeconds: Long = 86400L

  /** Keep the first conversion per (advertiser, order); thank-you page reloads fire the pixel again. */
  def dedupe(conversions: Dataset[ConversionRow]): Dataset[ConversionRow] = {
    import conversions.sparkSession.implicits._
    val firstSeen = Window.partitionBy(col(Cols.AdvertiserId), col(Cols.OrderId)).orderBy(col(Cols.EventTs).asc)

    conversions
      .withColumn(Cols.Rank, row_number().over(firstSeen))
      .where(col(Cols.Rank) === 1)
      .drop(Cols.Rank)
      .as[ConversionRow]
  }

  /**
   * Last-touch with window functions. The old groupByKey-per-user version ran
   * executors out of memory on bot users, so nothing here collects a user's history.
   */
  def attribute(touches: Dataset[TouchRow], conversions: Dataset[ConversionRow]): Dataset[AttributedRow] = {
    import conversions.sparkSession.implicits._

    val c = dedupe(conversions).alias("c")
    val t = touches.alias("t")

    val age = unix_timestamp(col(s"c.${Cols.EventTs}")) - unix_timestamp(col(s"t.${Cols.EventTs}"))
    val inWindow =
      (col(s"t.${Cols.TouchType}") === "click" && age.between(0, ClickLookbackSeconds)) ||
        (col(s"t.${Cols.TouchType}") === "view" && age.between(0, ViewLookbackSeconds))

    val clickFirst = when(col(s"t.${Cols.TouchType}") === "click", 0).otherwise(1)
    val best = Window
      .partitionBy(col(s"c.${Cols.AdvertiserId}"), col(s"c.${Cols.OrderId}"))
      .orderBy(clickFirst, col(s"t.${Cols.EventTs}").desc)

    c.join(t, col(s"c.${Cols.UserKey}") === col(s"t.${Cols.UserKey}") &&
        col(s"c.${Cols.AdvertiserId}") === col(s"t.${Cols.AdvertiserId}"))
      .where(inWindow)
      .withColumn(Cols.Rank, row_number().over(best))
      .where(col(Cols.Rank) === 1)
      .select(
        col(s"c.${Cols.AdvertiserId}").as(Cols.AdvertiserId),
        col(s"c.${Cols.OrderId}").as(Cols.OrderId),
        col(s"t.${Cols.CampaignId}").as(Cols.CampaignId),
        col(s"t.${Cols.TouchType}").as(Cols.TouchType),
        col(s"c.${Cols.RevenueMicros}").as(Cols.RevenueMicros),
        col(s"c.${Cols.EventTs}").as(Cols.ConversionTs),
        to_date(col(s"c.${Cols.EventTs}")).as(Cols.EventDate))
      .as[AttributedRow]
  }
}
