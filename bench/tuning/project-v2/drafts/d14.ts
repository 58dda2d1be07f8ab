import { Controller } from "@hotwired/stimulus"

// Swipeable photo gallery for listing pages.
export default class extends Controller<HTMLElement> {
  static targets = ["track", "slide", "counter", "price"]
  static values = { priceCents: Number, currency: String }

  declare readonly trackTarget: HTMLElement
  declare readonly slideTargets: HTMLElement[]
  declare readonly counterTarget: HTMLElement
  declare readonly priceTarget: HTMLElement
  declare readonly priceCentsValue: number
  declare readonly currencyValue: string

  private index = 0
  private startX: number | null = null

  connect(): void {
    this.priceTarget.textContent = new Intl.NumberFormat("de-DE", {
      style: "currency",
      currency: this.currencyValue || "EUR",
    }).format(this.priceCentsValue / 100)
    this.render()
  }

  touchstart(event: TouchEvent): void {
    this.startX = event.touches[0]?.clientX ?? null
  }

  touchend(event: TouchEvent): void {
    if (this.startX === null) return
    const dx = (event.changedTouches[0]?.clientX ?? this.startX) - this.startX
    if (Math.abs(dx) > 40) this.go(dx < 0 ? 1 : -1)
    this.startX = null
  }

  next(): void { this.go(1) }
  previous(): void { this.go(-1) }

  private go(step: number): void {
    const count = this.slideTargets.length
    this.index = (this.index + step + count) % count
    this.render()
  }

  private render(): void {
    this.trackTarget.style.transform = `translateX(-${this.index * 100}%)`
    this.counterTarget.textContent = `${this.index + 1} / ${this.slideTargets.length}`
  }
}
