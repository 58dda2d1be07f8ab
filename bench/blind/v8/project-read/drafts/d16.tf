# terraform/clinical/main.tf
# VMs and segments for the clinical application cluster (EPR front-ends).

terraform {
  required_version = "~> 1.7.0"

  backend "s3" {
    bucket                      = "wardnet-tfstate"
    key                         = "clinical/terraform.tfstate"
    region                      = "us-east-1"
    endpoint                    = "https://minio.infra.wardnet.local:9000"
    skip_credentials_validation = true
    force_path_style            = true
  }

  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "~> 2.8.1"
    }
    nsxt = {
      source  = "vmware/nsxt"
      version = "~> 3.6.1"
    }
  }
}

data "vsphere_datacenter" "dc" {
  name = var.datacenter
}

resource "nsxt_policy_segment" "clinical_app" {
  display_name        = "seg-clinical-app"
  transport_zone_path = data.nsxt_policy_transport_zone.overlay.path
  subnet {
    cidr = "10.44.12.1/24"
  }
}

resource "vsphere_virtual_machine" "epr_frontend" {
  count            = 3
  name             = format("epr-fe-%02d", count.index + 1)
  resource_pool_id = data.vsphere_compute_cluster.clinical.resource_pool_id
  datastore_id     = data.vsphere_datastore.vsan.id
  num_cpus         = 4
  memory           = 16384

  network_interface {
    network_id = data.vsphere_network.clinical_app.id
  }

  clone {
    template_uuid = data.vsphere_virtual_machine.rhel9_template.id
  }

  # once the VMs exist, put the access-switch port config in place for the
  # new uplinks so nobody has to remember to run the playbook afterwards
  provisioner "local-exec" {
    command = "ansible-playbook -i ../../ansible/inventory/prod.yml ../../ansible/playbooks/access_ports.yml --limit sw-clin-3w"
  }
}
