import { Component, ChangeDetectionStrategy, input, computed } from "@angular/core";
import { NgModule } from "@angular/core";
import { CommonModule } from "@angular/common";
import type { Clue } from "@lexigrid/formats";

@Component({
  selector: "lx-clue-list",
  templateUrl: "./clue-list.component.html",
  styleUrls: ["./clue-list.component.scss"],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ClueListComponent {
  readonly clues = input.required<Clue[]>();
  readonly across = computed(() => this.clues().filter((c) => c.direction === "across"));
  readonly down = computed(() => this.clues().filter((c) => c.direction === "down"));
}

@NgModule({
  declarations: [ClueListComponent],
  imports: [CommonModule],
  exports: [ClueListComponent],
})
export class ClueListModule {}
