-- AlterEnum
ALTER TYPE "PushStatus" ADD VALUE 'SENDING';
