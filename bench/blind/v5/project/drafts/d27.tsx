import { render, screen, fireEvent } from "@testing-library/react-native";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RecentPayeesRow } from "./RecentPayeesRow";
import { usePayeesRecent } from "../../../hooks/usePayeesRecent";

jest.mock("../../../hooks/usePayeesRecent");

const payees = [
  { id: "p1", name: "Jana Novotná", ibanMasked: "CZ•• •••• 4411", lastPaidAt: "2026-03-01T10:00:00Z" },
  { id: "p2", name: "Elektro Brno s.r.o.", ibanMasked: "CZ•• •••• 0093", lastPaidAt: "2026-02-27T08:30:00Z" },
];

function renderRow(onSelect = jest.fn()) {
  const qc = new QueryClient();
  render(
    <QueryClientProvider client={qc}>
      <RecentPayeesRow onSelect={onSelect} />
    </QueryClientProvider>,
  );
  return onSelect;
}

describe("RecentPayeesRow", () => {
  beforeEach(() => {
    (usePayeesRecent as jest.Mock).mockReturnValue({ data: { payees }, isLoading: false });
  });

  it("shows each payee with masked iban", () => {
    renderRow();
    expect(screen.getByText("Jana Novotná")).toBeTruthy();
    expect(screen.getByText("CZ•• •••• 0093")).toBeTruthy();
  });

  it("selects a payee when tapped", () => {
    const onSelect = renderRow();
    fireEvent.press(screen.getByRole("button", { name: /Elektro Brno/ }));
    expect(onSelect).toHaveBeenCalledWith("p2");
  });

  it("renders nothing while loading", () => {
    (usePayeesRecent as jest.Mock).mockReturnValue({ data: undefined, isLoading: true });
    renderRow();
    expect(screen.queryByRole("button")).toBeNull();
  });
});
