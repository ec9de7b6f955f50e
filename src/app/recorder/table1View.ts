/**
 * The paper's Table 1 for the current scene as an HTML table (src/runner/table1Format.ts gives
 * the cells, so the page and the runner's closing line read the same). Each value cell carries
 * data-label with its column's label for tests.
 */
import type { Table1Row } from '../../runner/table1';
import { table1Cells } from '../../runner/table1Format';
import './recorder.css';

export class Table1View {
  readonly element: HTMLTableElement;

  constructor(container: HTMLElement) {
    this.element = document.createElement('table');
    this.element.className = 'table1';
    container.append(this.element);
  }

  /** Shows `row`; the caption names what it describes (e.g. "octopus-drop, 300 frames"). */
  show(row: Table1Row, caption: string): void {
    const cells = table1Cells(row);
    const t = this.element;
    t.replaceChildren();
    t.createCaption().textContent = `Table 1: ${caption}`;
    const head = t.createTHead().insertRow();
    const body = t.createTBody().insertRow();
    for (const c of cells) {
      const th = document.createElement('th');
      th.textContent = c.label;
      head.append(th);
      const td = body.insertCell();
      td.textContent = c.value;
      td.dataset.label = c.label;
    }
  }

  clear(): void {
    this.element.replaceChildren();
  }

  dispose(): void {
    this.element.remove();
  }
}
