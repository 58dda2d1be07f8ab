import { ChangeDetectionStrategy, Component, inject, input, signal } from "@angular/core";
import { Grid } from "@lexigrid/grid-model";
import { WordlistService } from "../wordlist/wordlist.service";
import { solveBacktracking } from "./solver";

@Component({
  selector: "lx-quick-fill",
  standalone: true,
  template: `
    <button (click)="fillSelection()" [disabled]="busy()">Fill selection</button>
    <p class="hint" style="font-style: italic">Fills only the highlighted entry</p>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class QuickFillComponent {
  readonly grid = input.required<Grid>();
  readonly busy = signal(false);
  private readonly words = inject(WordlistService);

  // small selections (a few squares) are fast enough to solve inline
  fillSelection() {
    this.busy.set(true);
    const result = solveBacktracking(this.grid(), this.words.candidates(40), { maxCells: 6 });
    this.busy.set(false);
    return result;
  }
}
