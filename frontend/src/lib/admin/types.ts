// The staff dashboard's wire types: generated from the Rust views (server/src/views/admin.rs and
// orders.rs, `make generate`), re-exported here under the names the dashboard uses.
import type { PaidVia } from "../generated/PaidVia";

export type { AdminMessage } from "../generated/AdminMessage";
export type { AdminOrder } from "../generated/AdminOrder";
export type { AdminStats } from "../generated/AdminStats";
export type { AdminTab } from "../generated/AdminTab";
export type { AwaitingList } from "../generated/AwaitingList";
export type { AwaitingPickup } from "../generated/AwaitingPickup";
export type { Channel } from "../generated/Channel";
export type { ChannelReport } from "../generated/ChannelReport";
export type { DayRun } from "../generated/DayRun";
export type { MessageChanged } from "../generated/MessageChanged";
export type { MessageResent } from "../generated/MessageResent";
export type { MessagesFilter } from "../generated/MessagesFilter";
export type { MessagesPage } from "../generated/MessagesPage";
export type { MpesaPayment } from "../generated/MpesaPayment";
export type { MpesaPromptView } from "../generated/MpesaPromptView";
export type { OrderChanged } from "../generated/OrderChanged";
export type { OrderDetail } from "../generated/OrderDetail";
export type { OrderLine } from "../generated/OrderLine";
export type { OrdersFilter } from "../generated/OrdersFilter";
export type { OrdersPage } from "../generated/OrdersPage";
export type { OutboxMessage } from "../generated/OutboxMessage";
export type { OutboxReport } from "../generated/OutboxReport";
export type { PaymentChanged } from "../generated/PaymentChanged";
export type { PaymentsToCheck } from "../generated/PaymentsToCheck";
export type { RunStop } from "../generated/RunStop";
export type { RunValet } from "../generated/RunValet";
export type { RunWindow } from "../generated/RunWindow";
export type { SlotConfirmed } from "../generated/SlotConfirmed";
export type { SlotOption } from "../generated/SlotOption";
export type { WaitingItem } from "../generated/WaitingItem";
export type { StatusChange } from "../generated/StatusChange";
export type { Takings } from "../generated/Takings";
export type { Tally } from "../generated/Tally";

/** What the payment panel sends to `POST /api/admin/orders/{id}/payment` (the server reads it
 * leniently and answers a message per field, so the request is not a generated type). */
export type PaymentChange =
  | { paymentStatus: "paid"; paidVia: Extract<PaidVia, "mpesa">; mpesaCode: string }
  | { paymentStatus: "paid"; paidVia: Extract<PaidVia, "cash"> }
  | { paymentStatus: "unpaid" };
