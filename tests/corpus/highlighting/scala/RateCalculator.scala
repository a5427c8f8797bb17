package com.example.pricing

import scala.concurrent.{ExecutionContext, Future}
import scala.util.{Failure, Success, Try}
import java.time.LocalDate

/** A customer's plan, as stored in the billing database. */
sealed trait Plan {
  def monthlyCents: Long
}

case class Flat(monthlyCents: Long) extends Plan
case class Metered(baseCents: Long, perUnitCents: Int, included: Int) extends Plan {
  def monthlyCents: Long = baseCents
}
case object Free extends Plan {
  val monthlyCents = 0L
}

final class RateCalculator(discounts: Map[String, Double])(implicit ec: ExecutionContext) {
  private val MaxDiscount = 0.5

  def invoice(customer: String, plan: Plan, units: Int): Long = {
    val base = plan match {
      case Flat(cents) => cents
      case Metered(base, perUnit, included) if units > included =>
        base + (units - included).toLong * perUnit
      case m: Metered => m.baseCents
      case Free => 0L
    }
    val discount = discounts.getOrElse(customer, 0.0) min MaxDiscount
    math.round(base * (1 - discount))
  }

  def invoiceAll(rows: Seq[(String, Plan, Int)]): Future[Seq[Long]] =
    Future.traverse(rows) { case (customer, plan, units) =>
      Future(invoice(customer, plan, units))
    }

  def parseUnits(raw: String): Either[String, Int] =
    Try(raw.trim.toInt) match {
      case Success(n) if n >= 0 => Right(n)
      case Success(n) => Left(s"negative usage: $n")
      case Failure(e) => Left(s"not a number: ${e.getMessage}")
    }
}

object RateCalculator {
  def main(args: Array[String]): Unit = {
    implicit val ec: ExecutionContext = ExecutionContext.global
    val calc = new RateCalculator(Map("acme" -> 0.1, "globex" -> 0.75))
    val total = calc.invoice("acme", Metered(1999, 5, 100), units = 250)
    println(f"acme owes ${total / 100.0}%.2f on ${LocalDate.now()}")
    val flags = List(true, false).filter(x => !x || total > 0)
    println(flags.isEmpty && total != 0x10)
    println(calc.parseUnits(" 42 ").map(_ * 2).getOrElse('?'))
  }
}
