package cmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

var rolloutCmd = &cobra.Command{
	Use:   "rollout restart <app>",
	Short: "restart an app's deployment",
	Args:  cobra.ExactArgs(2),
	RunE: func(cmd *cobra.Command, args []string) error {
		return restart(cmd.Context(), args[1])
	},
}

func init() { rootCmd.AddCommand(rolloutCmd) }

func restart(ctx context.Context, app string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", clientcmd.RecommendedHomeFile)
	if err != nil {
		return errors.New(fmt.Sprintf("kubeconfig: %v", err))
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"%s"}}}}}`, time.Now().Format(time.RFC3339))
	_, err = cs.AppsV1().Deployments(app).Patch(ctx, app, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		log.Printf("restart %s failed: %v", app, err)
		return err
	}
	log.Printf("restarted %s", app)
	return nil
}
