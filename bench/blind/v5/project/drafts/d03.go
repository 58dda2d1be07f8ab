package booking

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/tidemark/yardd/internal/db"
	"github.com/tidemark/yardd/internal/db/mockdb"
)

func TestCancelTwice(t *testing.T) {
	ctrl := gomock.NewController(t)
	q := mockdb.NewMockQuerier(ctrl)
	svc := NewServiceWithQuerier(q)

	q.EXPECT().GetBookingForUpdate(gomock.Any(), int64(7)).
		Return(db.Booking{ID: 7, SlotID: 3}, nil)
	q.EXPECT().MarkCancelled(gomock.Any(), int64(7)).Return(nil)
	q.EXPECT().DecrementReserved(gomock.Any(), int64(3)).Return(nil)

	if err := svc.Cancel(context.Background(), 7); err != nil {
		t.Fatalf("first cancel: %v", err)
	}
}

func TestCancelAlreadyCancelled(t *testing.T) {
	ctrl := gomock.NewController(t)
	q := mockdb.NewMockQuerier(ctrl)
	svc := NewServiceWithQuerier(q)

	cancelled := db.Booking{ID: 8, SlotID: 3}
	cancelled.CancelledAt.Valid = true
	q.EXPECT().GetBookingForUpdate(gomock.Any(), int64(8)).Return(cancelled, nil)

	err := svc.Cancel(context.Background(), 8)
	if !errors.Is(err, ErrAlreadyCancelled) {
		t.Fatalf("want ErrAlreadyCancelled, got %v", err)
	}
}

func TestCancelUnknown(t *testing.T) {
	ctrl := gomock.NewController(t)
	q := mockdb.NewMockQuerier(ctrl)
	svc := NewServiceWithQuerier(q)

	q.EXPECT().GetBookingForUpdate(gomock.Any(), int64(9)).Return(db.Booking{}, db.ErrNoRows)
	if err := svc.Cancel(context.Background(), 9); !errors.Is(err, ErrNotFound) {
		t.Fatalf("want ErrNotFound, got %v", err)
	}
}
